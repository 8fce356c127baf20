import { ResetPasswordForm } from '../../features/auth';
import { authCardPage } from '../layout/auth-card-page';

export const Component = authCardPage('auth.reset_title', ResetPasswordForm);
