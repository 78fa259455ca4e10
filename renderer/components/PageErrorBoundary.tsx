/** A page that throws while rendering shows what broke instead of a blank window. */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorState } from './States.js';

export class PageErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Loupe: a page failed to render', error, info.componentStack);
  }

  override render() {
    if (this.state.error) {
      return (
        <div className="page-body">
          <ErrorState title="This page failed to render" message={this.state.error.message} onRetry={() => this.setState({ error: null })} />
        </div>
      );
    }
    return this.props.children;
  }
}
