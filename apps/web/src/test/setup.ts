import { en } from '@atelier/shared/i18n/en';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { i18n } from '../lib/i18n';

// Components render in English, as a page the server rendered does before the rest of the words come.
i18n.addResourceBundle('en', en);

// Each test starts from an empty page.
afterEach(() => cleanup());
