/**
 * The web build's index.html as the server reads it (title and description the server replaces per
 * page), for tests that give the app a web build (`useTestApp({ web: { 'dist/index.html': SHELL } })`).
 */
export const SHELL = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Atelier — marketplace for prompts, texts and original images</title>
    <meta name="description" content="Buy AI prompts, polished texts and original images directly from their creators." />
  </head>
  <body><div id="root"></div></body>
</html>`;
