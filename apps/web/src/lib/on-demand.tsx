import { type ComponentType, memo, type ReactNode, Suspense, use, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * A module loaded on demand, for a render that needs it: `read()` answers it once loaded, and before
 * that suspends the render until it is (the router changes pages in a transition, so the page before
 * stays on screen meanwhile). `load()` starts the download early, as the router does before a page's
 * first render so that hydration finds the code there. A download that failed (offline) is tried
 * again on the next read.
 */
export function onDemand<T>(importer: () => Promise<T>) {
  let loaded: T | undefined;
  let loading: Promise<T> | undefined;
  const load = () => {
    loading ??= importer().then(
      (m) => (loaded = m),
      (err: unknown) => {
        loading = undefined;
        throw err;
      },
    );
    return loading;
  };
  // `use` is React's hook for reading a promise in render; read() is called only inside components.
  const read = (): T => loaded ?? use(load());
  return { read, load };
}

let hydrating = false;
/** Set by src/main.tsx: whether the first render hydrates the server's HTML. */
export function setHydrating(on: boolean) {
  hydrating = on;
}

/** A promise and the function that resolves it. */
function opening() {
  let resolve = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function Gate({ until, children }: { until: Promise<void> | null; children: ReactNode }) {
  if (until) use(until);
  return children;
}

function sameProps(a: object, b: object) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.is(a[k as keyof typeof a], b[k as keyof typeof b]));
}

type AnyProps = Record<string, unknown>;
type BoundaryProps = { until: Promise<void> | null; component: ComponentType<AnyProps>; props: AnyProps };

/**
 * The boundary is memoised: a re-render of the page around it (words or data arriving) must not reach
 * it while it still holds the server's HTML, or React would drop that HTML and render it anew.
 */
const Boundary = memo(
  function Boundary({ until, component: Component, props }: BoundaryProps) {
    return (
      <Suspense fallback={null}>
        <Gate until={until}>
          <Component {...props} />
        </Gate>
      </Suspense>
    );
  },
  (a, b) => a.until === b.until && a.component === b.component && sameProps(a.props, b.props),
);

/**
 * A part below the fold that the server rendered and the browser hydrates only when it comes near
 * the screen: until then its code is not downloaded and the server's HTML stays as it is (React keeps
 * a suspended boundary's HTML during hydration). `component` is a React.lazy component (the server
 * renderer renders again once such a part has loaded, src/entry-server.tsx). The first screen's JavaScript stays within budget
 * (issue 20) and its hydration is shorter. After the first render (a page opened by a link) the
 * part renders at once, as any other.
 */
export function HydrateWhenVisible<P extends object>({ component, props }: { component: ComponentType<P>; props: P }) {
  const box = useRef<HTMLDivElement>(null);
  const [gate] = useState(() => (typeof window === 'undefined' || !hydrating ? null : opening()));
  // A navigation reaches inside the part (its links read the address): React then waits for the part to
  // hydrate before it shows the next page, so the part hydrates now (the footer on every page, a pack
  // page's redirect before anything was touched).
  const { key } = useLocation();
  const [firstKey] = useState(key);
  if (gate && key !== firstKey) gate.resolve();
  useEffect(() => {
    if (!gate) return;
    const el = box.current;
    if (!el) return gate.resolve();
    // Near the screen, or already passed (a jump to an anchor below it), or touched or focused first.
    const check = () => {
      if (el.getBoundingClientRect().top < window.innerHeight + 100) open();
    };
    const open = () => {
      gate.resolve();
      stop();
    };
    const stop = () => {
      window.removeEventListener('scroll', check);
      window.removeEventListener('resize', check);
      el.removeEventListener('pointerdown', open);
      el.removeEventListener('focusin', open);
    };
    window.addEventListener('scroll', check, { passive: true });
    window.addEventListener('resize', check, { passive: true });
    el.addEventListener('pointerdown', open);
    el.addEventListener('focusin', open);
    check();
    return stop;
  }, [gate]);
  return (
    <div ref={box}>
      {/* The memoised Boundary cannot be generic; it hands `component` the very `props` typed P with it. */}
      <Boundary until={gate?.promise ?? null} component={component as unknown as ComponentType<AnyProps>} props={props as AnyProps} />
    </div>
  );
}
