/** The Federation workbench. Its tools arrive with the federation issue; until then it shows its overview. */
import { WorkbenchOverview } from '../WorkbenchOverview.js';

export function FederationPage() {
  return <WorkbenchOverview id="federation" />;
}
