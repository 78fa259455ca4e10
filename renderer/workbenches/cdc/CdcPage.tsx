/** The CDC workbench. Its tools arrive with the cdc issue; until then it shows its overview. */
import { WorkbenchOverview } from '../WorkbenchOverview.js';

export function CdcPage() {
  return <WorkbenchOverview id="cdc" />;
}
