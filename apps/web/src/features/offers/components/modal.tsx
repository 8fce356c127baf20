/** The offers' dialogs use the app's one dialog primitive. */
export { Modal } from '../../../components/ui/modal';
