export * from './auth';
export * from './catalog';
export * from './constants';
export * from './envelope';
export * from './fields';
export * from './health';
export { en, type TranslationKey } from './i18n/en';
export * from './money';
export * from './settings';
