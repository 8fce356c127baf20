import { Component, type ReactNode } from 'react';

type Props = { path: string; message: string; children: ReactNode };
type State = { failed: boolean; path: string };

/**
 * A page that fails to render, or whose code does not load (offline, or a chunk gone after a
 * deploy), shows a message inside the layout instead of emptying the screen; going to another
 * address tries again. (The data router had a boundary of its own; the declarative one has none.)
 */
export class PageErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, path: this.props.path };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.path === state.path ? null : { failed: false, path: props.path };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <section className="page narrow center state-block" role="alert">
        <p>{this.props.message}</p>
      </section>
    );
  }
}
