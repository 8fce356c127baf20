import { ForgotPasswordForm } from '../../features/auth';
import { authCardPage } from '../layout/auth-card-page';

export const Component = authCardPage('auth.forgot_title', ForgotPasswordForm);
