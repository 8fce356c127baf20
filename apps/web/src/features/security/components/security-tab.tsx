import { type FormEvent, useState } from 'react';
import { Field } from '../../../components/ui/field';
import { PasswordConfirm } from '../../../components/ui/password-confirm';
import { useToast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { messageOf } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import {
  isStepUpError,
  useNewRecoveryCodes,
  useRevokeOtherSessions,
  useRevokeSession,
  useSecurityStatus,
  useSessions,
  useTotpDisable,
  useTotpEnable,
  useTotpSetup,
} from '../api/security';
import { PasskeysSection } from './passkeys-section';
import { useStepUp } from './step-up-dialog';
import './security.css';

/**
 * The QR code is our own server's SVG (drawn by a library there): shown as an image, so nothing in it
 * can run as markup in the page.
 */
const svgDataUrl = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const text = `${codes.join('\n')}\n`;
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'atelier-recovery-codes.txt';
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <div className="panel" data-testid="recovery-codes">
      <h3>{t('security.recovery_title')}</h3>
      <p className="muted">{t('security.recovery_text')}</p>
      <ul className="recovery-codes">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="actions">
        <button
          type="button"
          className="button"
          onClick={() =>
            void navigator.clipboard?.writeText(text).then(
              () => toast.success(t('security.copied')),
              () => toast.error(t('security.failed')),
            )
          }
        >
          {t('security.copy')}
        </button>
        <button type="button" className="button" onClick={download}>
          {t('security.download')}
        </button>
        <button type="button" className="button primary" onClick={onDone}>
          {t('security.done')}
        </button>
      </div>
    </div>
  );
}

function TwoFactorSection() {
  const { t } = useTranslation();
  const toast = useToast();
  const status = useSecurityStatus();
  const setup = useTotpSetup();
  const enable = useTotpEnable();
  const disable = useTotpDisable();
  const newCodes = useNewRecoveryCodes();
  const stepUp = useStepUp();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string>();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string>();

  async function onEnable(e: FormEvent) {
    e.preventDefault();
    setCodeError(undefined);
    try {
      const answer = await stepUp.run(() => enable.mutateAsync(code));
      setCodes(answer.recovery_codes);
      setCode('');
      setup.reset();
    } catch (err) {
      if (isStepUpError(err)) return;
      setCodeError(err instanceof ApiError ? (err.field('code') ?? err.message) : t('security.failed'));
    }
  }

  // Setting up the app and new recovery codes change how the account signs in: a fresh proof first (issue 29).
  async function onSetUp() {
    try {
      await stepUp.run(() => setup.mutateAsync());
    } catch (err) {
      if (!isStepUpError(err)) toast.error(messageOf(err, t('security.failed')));
    }
  }

  async function onNewCodes() {
    try {
      const answer = await stepUp.run(() => newCodes.mutateAsync());
      setCodes(answer.recovery_codes);
    } catch (err) {
      if (!isStepUpError(err)) toast.error(messageOf(err, t('security.failed')));
    }
  }

  async function onDisable() {
    setPasswordError(undefined);
    try {
      // No code in the form: the step-up dialog asks for one when this session has not proved it lately.
      await stepUp.run(() => disable.mutateAsync({ password }));
      toast.success(t('security.disabled'));
      setDisabling(false);
      setPassword('');
    } catch (err) {
      if (err instanceof ApiError && err.field('password')) setPasswordError(err.field('password'));
      else if (!(err instanceof ApiError && err.status === 403)) toast.error(messageOf(err, t('security.failed')));
    }
  }

  if (codes) return <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />;
  const on = status.data?.totp_enabled;
  return (
    <section className="panel" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">{t('security.two_factor_title')}</h2>
      {status.data && (
        <p className="muted" data-testid="two-factor-state">
          {on ? t('security.two_factor_on', { count: status.data.recovery_codes_left }) : t('security.two_factor_off')}
        </p>
      )}
      {status.data && !on && !setup.data && (
        <button type="button" className="button primary" disabled={setup.isPending} onClick={() => void onSetUp()}>
          {t('security.set_up')}
        </button>
      )}
      {!on && setup.data && (
        <div className="totp-setup">
          <img src={svgDataUrl(setup.data.qr_svg)} alt={t('security.qr_alt')} width="220" height="220" />
          <div className="form-grid">
            <p>{t('security.scan')}</p>
            <div>
              <div className="muted">{t('security.manual_key')}</div>
              <code className="totp-key" data-testid="totp-key">
                {setup.data.secret.replace(/(.{4})/g, '$1 ').trim()}
              </code>
            </div>
            <form className="form-grid" onSubmit={onEnable} noValidate>
              <Field
                label={t('security.code')}
                inputMode="numeric"
                autoComplete="one-time-code"
                value={code}
                error={codeError}
                onChange={(e) => setCode(e.target.value)}
              />
              <div className="actions">
                <button type="submit" className="button primary" disabled={enable.isPending || !code.trim()}>
                  {t('security.enable')}
                </button>
              </div>
            </form>
          </div>
        </div>
      )}
      {on && !disabling && (
        <div className="actions">
          <button type="button" className="button" disabled={newCodes.isPending} onClick={() => void onNewCodes()}>
            {t('security.new_recovery_codes')}
          </button>
          <button type="button" className="button" onClick={() => setDisabling(true)}>
            {t('security.disable')}
          </button>
        </div>
      )}
      {on && disabling && (
        <PasswordConfirm
          label={t('security.password')}
          value={password}
          error={passwordError}
          onChange={setPassword}
          onSubmit={onDisable}
          onCancel={() => setDisabling(false)}
          cancelLabel={t('security.cancel')}
          confirmLabel={t('security.disable')}
          pending={disable.isPending}
        />
      )}
      {stepUp.dialog}
    </section>
  );
}

function SessionsSection() {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const sessions = useSessions();
  const revoke = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const others = (sessions.data ?? []).filter((s) => !s.current).length;
  const act = async (call: () => Promise<{ message: string }>) => {
    try {
      toast.success((await call()).message);
    } catch (err) {
      toast.error(messageOf(err, t('security.failed')));
    }
  };
  return (
    <section className="panel" aria-labelledby="sessions-title">
      <h2 id="sessions-title">{t('security.sessions_title')}</h2>
      <ul className="session-list">
        {(sessions.data ?? []).map((s) => (
          <li key={s.id} className="session-item" data-testid="session">
            <div>
              <strong>
                {t(`security.device_${s.device}`)} · {t('security.session_name', { browser: s.browser, os: s.os })}
              </strong>
              {s.current && <span className="session-current"> · {t('security.this_browser')}</span>}
              <span className="muted"> · {s.second_factor ? t('security.session_second_factor') : t('security.session_password_only')}</span>
              <p className="muted">{t('security.session_details', { created: when(s.created_at), seen: when(s.last_seen_at), ip: s.ip_hint || '—' })}</p>
            </div>
            {!s.current && (
              <button type="button" className="button" disabled={revoke.isPending} onClick={() => void act(() => revoke.mutateAsync(s.id))}>
                {t('security.sign_out')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {others > 0 && (
        <div className="actions">
          <button type="button" className="button" disabled={revokeOthers.isPending} onClick={() => void act(() => revokeOthers.mutateAsync())}>
            {t('security.sign_out_others')}
          </button>
        </div>
      )}
    </section>
  );
}

/** The dashboard's Security tab (issue 21): passkeys, two-factor sign-in, and where the account is signed in. */
export function SecurityTab() {
  return (
    <div className="security-tab">
      <PasskeysSection />
      <TwoFactorSection />
      <SessionsSection />
    </div>
  );
}
