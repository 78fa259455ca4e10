/** The Relevance workbench. Its tools arrive with the relevance issue; until then it shows its overview. */
import { WorkbenchOverview } from '../WorkbenchOverview.js';

export function RelevancePage() {
  return <WorkbenchOverview id="relevance" />;
}
