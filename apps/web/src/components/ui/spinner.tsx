export function Spinner({ label = 'Loading...' }: { label?: string }) {
  return (
    <span className="spinner" role="status" aria-label={label}>
      <span className="spinner-ring" aria-hidden="true" />
    </span>
  );
}

/** Shown until the authentication state is known (SPEC §2). */
export function FullScreenSpinner() {
  return (
    <div className="fullscreen-spinner">
      <Spinner />
    </div>
  );
}
