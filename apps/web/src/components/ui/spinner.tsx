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

/** How far an upload has gone, 0 to 100, as a bar screen readers announce. */
export function ProgressBar({ percent, label }: { percent: number; label: string }) {
  return (
    <div className="progress" role="progressbar" aria-valuenow={percent} aria-valuemin={0} aria-valuemax={100} aria-label={label}>
      <span style={{ width: `${percent}%` }} />
    </div>
  );
}
