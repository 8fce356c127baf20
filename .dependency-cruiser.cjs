/**
 * One-way imports (STYLE.md): shared → features → app. `npm run lint:deps` checks them on every
 * `npm test`; imports recorded in .dependency-cruiser-known-violations.json are reported as known
 * and do not fail it (they are the server's, listed to be fixed). `npm run lint:deps:all` shows
 * every violation, known or not; after fixing some, `npm run lint:deps:baseline` rewrites the list.
 */

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'No import cycles (issue 31): a loop means two modules own one piece between them. Give the shared piece one owner ' +
        'that both import. Cycles are not in the known-violations list: every one fails the check.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'feature-public-face',
      comment:
        'A feature imports another feature only through its index.ts, its public face; never its routes, queries or components directly. ' +
        'Shared needs live in one owner feature or in lib/.',
      severity: 'error',
      from: { path: '^apps/(web|server)/src/features/([^/]+)/' },
      to: {
        path: '^apps/$1/src/features/[^/]+/',
        pathNot: ['^apps/$1/src/features/$2/', '^apps/$1/src/features/[^/]+/index\\.tsx?$'],
      },
    },
    {
      name: 'web-lib-and-components-import-no-feature',
      comment: 'lib/ and components/ are below the features: they import neither a feature nor the app (pages and the layout live in app/).',
      severity: 'error',
      from: { path: '^apps/web/src/(lib|components)/' },
      to: { path: '^apps/web/src/(features|app)/|^apps/web/src/(main|entry-server)\\.tsx$' },
    },
    {
      name: 'web-features-import-no-app',
      comment: 'Pages and the layout compose features; a feature never imports them.',
      severity: 'error',
      from: { path: '^apps/web/src/features/' },
      to: { path: '^apps/web/src/app/|^apps/web/src/(main|entry-server)\\.tsx$' },
    },
    {
      name: 'server-lib-and-db-import-no-feature',
      comment: 'lib/ and db/ are below the features: they import neither a feature nor app.ts.',
      severity: 'error',
      from: { path: '^apps/server/src/(lib|db)/' },
      to: { path: '^apps/server/src/features/|^apps/server/src/(app|server)\\.ts$' },
    },
    {
      name: 'server-features-import-no-app',
      comment: 'app.ts composes the features; a feature never imports it.',
      severity: 'error',
      from: { path: '^apps/server/src/features/' },
      to: { path: '^apps/server/src/(app|server)\\.ts$' },
    },
    {
      name: 'shared-imports-no-app',
      comment: 'packages/shared is the contract both apps build on: it never imports either of them.',
      severity: 'error',
      from: { path: '^packages/shared/' },
      to: { path: '^apps/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|dist-ssr)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
