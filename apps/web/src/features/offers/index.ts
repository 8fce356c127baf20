/** The offers feature's public face (the creator's side: My projects, offers and payouts): import only this file. */

/** The dialog frame (focus inside, Escape closes, focus returns); the back office's confirmations use it too. */
export { Modal } from './components/modal';
export { MyProjects } from './components/my-projects';
