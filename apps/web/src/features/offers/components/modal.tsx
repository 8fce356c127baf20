/** The offers' dialogs use the app's one dialog primitive. */
export { Modal, ModalCancel } from '../../../components/ui/modal';
