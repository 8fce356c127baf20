/** The offers' dialogs use the app's one dialog primitive. */
export { Modal, ModalCancel, ModalCloseRow } from '../../../components/ui/modal';
