import { en } from '@atelier/shared/i18n/en';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { i18n } from '../lib/i18n';
import { takeContractProblems } from './contract-check';

// Components render in English, as a page the server rendered does before the rest of the words come.
i18n.addResourceBundle('en', en);

// Each test starts from an empty page. A fake API answer that the OpenAPI document's schemas reject
// fails the test that gave it (fake-api.ts), after the page is emptied so the next test starts clean.
afterEach(() => {
  cleanup();
  const problems = takeContractProblems();
  if (problems.length) throw new Error(`Fake API answers drifted from the contract:\n\n${problems.join('\n\n')}`);
});
