import { AppLayout, type Viewer } from "../layout.tsx";
import { KeyPanel, type KeyPanelProps } from "./key-panel.tsx";

export function KeysPage(props: { viewer: Viewer; panel: KeyPanelProps }) {
  return (
    <AppLayout title="API key" viewer={props.viewer} section="keys">
      <div class="page-head">
        <h1>API key</h1>
        <p class="muted">One key is active at a time. Its scopes are fixed when you create it.</p>
      </div>
      <KeyPanel {...props.panel} />
    </AppLayout>
  );
}
