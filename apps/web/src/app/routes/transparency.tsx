import { TransparencyFigures } from '../../features/reports';

/** The public transparency report (issue 33). */
export function Component() {
  return (
    <div className="page narrow">
      <TransparencyFigures />
    </div>
  );
}
