import type { ComponentType } from 'react';
import { AuthCard } from '../../features/auth';
import { useTranslation } from '../../lib/i18n-runtime';

/** A page that is one auth card: its title (a dictionary key) over one form or notice. */
export function authCardPage(titleKey: string, Body: ComponentType) {
  return function Component() {
    const { t } = useTranslation();
    return (
      <AuthCard title={t(titleKey)}>
        <Body />
      </AuthCard>
    );
  };
}
