/** Notice and action on the web (issue 33): the Report link and dialog, the author's statements, the staff queue, the public figures. */
export { MyStatements } from './components/my-statements';
export { ReportDialog, ReportLink } from './components/report-dialog';
export { ReportsQueue } from './components/reports-queue';
export { TransparencyFigures } from './components/transparency-figures';
