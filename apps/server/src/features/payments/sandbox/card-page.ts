import { escapeHtml } from '../../../lib/text';

/** The sandbox's hosted pages: plain HTML forms, clearly marked as test payments. */

const style = `
body{font-family:system-ui,sans-serif;background:#f4f2fb;color:#17151f;margin:0;padding:32px 16px}
main{max-width:420px;margin:0 auto;background:#fff;border-radius:16px;padding:28px;box-shadow:0 8px 30px rgba(0,0,0,.08)}
.badge{display:inline-block;background:#ffd23f;border-radius:999px;padding:4px 12px;font-size:13px;font-weight:700;letter-spacing:.04em}
h1{font-size:22px;margin:16px 0 4px}.amount{font-size:30px;font-weight:600;margin:0 0 20px}
label{display:block;font-size:14px;margin:12px 0 4px}input{width:100%;box-sizing:border-box;padding:10px 12px;border:1px solid #ccc;border-radius:8px;font-size:16px}
.row{display:flex;gap:12px}.row>div{flex:1}
button{margin-top:20px;width:100%;padding:12px;border:0;border-radius:999px;background:#17151f;color:#fff;font-size:16px;font-weight:600;cursor:pointer}
button.secondary{background:#b3203a}.error{color:#b00020;font-size:14px;margin:6px 0 0}.hint{color:#666;font-size:13px;margin-top:18px;line-height:1.5}
`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${style}</style></head><body><main><span class="badge">TEST PAYMENT</span>${body}</main></body></html>`;
}

export type CardFormValues = { card_number?: string; exp_month?: string; exp_year?: string; cvc?: string };

/**
 * How a page is shown: on its own (`page`), in the Add Funds widget whose outcome takes the whole
 * tab to the payment pages (`top`), or in a dialog that stays where it is (`in-place`: a card payment
 * for something, such as a chat image, whose outcome the dialog reads).
 */
export type CardPageMode = 'page' | 'top' | 'in-place';
const formTarget = (mode: CardPageMode | undefined) => (mode === 'top' ? ' target="_top"' : '');

export function cardFormPage(opts: {
  action: string;
  amount: string;
  errors?: Record<string, string>;
  values?: CardFormValues;
  mode?: CardPageMode;
  /** The heading: 'Add funds' for a deposit, 'Card payment' for a payment for something. */
  title?: string;
  /** Issue 31: on a page of its own, the way back to the app without paying (as a provider's Cancel). */
  cancelUrl?: string;
}): string {
  const e = opts.errors ?? {};
  const v = opts.values ?? {};
  const field = (name: keyof CardFormValues, label: string, attrs: string) =>
    `<div><label for="${name}">${label}</label><input id="${name}" name="${name}" ${attrs} value="${escapeHtml(name === 'card_number' || name === 'cvc' ? '' : (v[name] ?? ''))}">${
      e[name] ? `<p class="error" role="alert">${escapeHtml(e[name]!)}</p>` : ''
    }</div>`;
  return page(
    'Test card payment',
    `<h1>${escapeHtml(opts.title ?? 'Add funds')}</h1><p class="amount">${escapeHtml(opts.amount)}</p>
<form method="post" action="${escapeHtml(opts.action)}"${formTarget(opts.mode)} autocomplete="off">
${field('card_number', 'Card number', 'inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" required')}
<div class="row">${field('exp_month', 'Month', 'inputmode="numeric" placeholder="MM" required')}${field('exp_year', 'Year', 'inputmode="numeric" placeholder="YYYY" required')}${field('cvc', 'CVC', 'inputmode="numeric" autocomplete="cc-csc" placeholder="123" required')}</div>
${e.form ? `<p class="error" role="alert">${escapeHtml(e.form)}</p>` : ''}
<button type="submit">Pay ${escapeHtml(opts.amount)}</button>
</form>
${opts.cancelUrl ? `<p><a class="cancel" href="${escapeHtml(opts.cancelUrl)}">Cancel and return to Atelier</a></p>` : ''}
<p class="hint">This is Atelier's built-in test payment page: no real card is charged. Test cards: 4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 is declined; 4000 0000 0000 3220 asks for 3-D Secure; 4000 0000 0000 0259 pays and is then disputed (a chargeback). Any future expiry date and any CVC.</p>`,
  );
}

export function threeDsPage(opts: { action: string; amount: string; mode?: CardPageMode }): string {
  const target = formTarget(opts.mode);
  return page(
    '3-D Secure test',
    `<h1>3-D Secure authentication</h1><p class="amount">${escapeHtml(opts.amount)}</p>
<p>Your bank asks you to confirm this test payment.</p>
<form method="post" action="${escapeHtml(opts.action)}"${target}><input type="hidden" name="three_ds" value="complete"><button type="submit">Complete</button></form>
<form method="post" action="${escapeHtml(opts.action)}"${target}><input type="hidden" name="three_ds" value="fail"><button type="submit" class="secondary">Fail</button></form>`,
  );
}

export function expiredLinkPage(mode?: CardPageMode): string {
  return page(
    'Payment link not valid',
    mode === 'in-place'
      ? '<h1>This payment form is no longer valid.</h1><p>Close it and start the payment again.</p>'
      : '<h1>This payment link is no longer valid.</h1><p>Start a new deposit from <a href="/deposit/create">Add Funds</a>.</p>',
  );
}

/**
 * The end of an in-place payment, inside the dialog's frame: it says what happened and tells the page
 * around it (frame-done.js posts the outcome to the parent window, which reads the payment's status).
 */
export function paymentDonePage(opts: { depositId: number; succeeded: boolean; message?: string; scriptUrl: string }): string {
  const text = opts.succeeded ? 'Payment received. One moment…' : (opts.message ?? 'The payment did not go through.');
  return page(
    opts.succeeded ? 'Payment received' : 'Payment failed',
    `<h1 data-outcome="${opts.succeeded ? 'succeeded' : 'failed'}" data-deposit="${opts.depositId}" id="outcome">${escapeHtml(text)}</h1>
<script src="${escapeHtml(opts.scriptUrl)}"></script>`,
  );
}

/** Posts an in-place payment's outcome to the window around the frame (same origin only). */
export function frameDoneScript(): string {
  return `(function(){
  var el = document.getElementById('outcome');
  if (!el || window.parent === window) return;
  window.parent.postMessage({ source: 'atelier-sandbox', outcome: el.getAttribute('data-outcome'), depositId: Number(el.getAttribute('data-deposit')) }, window.location.origin);
})();`;
}

/** The widget script: renders the same card form in an iframe inside the container it is given. */
export function widgetScript(payPath: string): string {
  return `(function(){
  function mount(container, opts){
    var el = typeof container === 'string' ? document.querySelector(container) : container;
    if (!el || !opts || !opts.checkout) throw new Error('AtelierSandbox: a container and opts.checkout are required');
    var frame = document.createElement('iframe');
    frame.src = ${JSON.stringify(payPath)} + '/' + encodeURIComponent(opts.checkout) + '?embed=1';
    frame.title = 'Test card payment';
    frame.style.width = '100%'; frame.style.minHeight = '560px'; frame.style.border = '0';
    el.innerHTML = ''; el.appendChild(frame);
    // An in-place payment's frame reports its outcome; opts.onComplete hears it.
    if (typeof opts.onComplete === 'function') {
      var listener = function(e){
        if (e.source !== frame.contentWindow || e.origin !== new URL(frame.src).origin || !e.data || e.data.source !== 'atelier-sandbox') return;
        window.removeEventListener('message', listener);
        opts.onComplete({ outcome: e.data.outcome, depositId: e.data.depositId });
      };
      window.addEventListener('message', listener);
    }
    return frame;
  }
  window.AtelierSandbox = { mount: mount };
})();`;
}
