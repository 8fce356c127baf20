import { MyStatements } from '../../features/reports';

/** Reports about my content: each statement of reasons, with its appeal (issue 33). */
export function Component() {
  return <MyStatements />;
}
