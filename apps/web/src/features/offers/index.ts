/** The offers feature's public face (the creator's side: My projects, offers and payouts): import only this file. */
export { MyProjects } from './components/my-projects';
