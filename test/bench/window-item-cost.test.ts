// Bench table 5d prices what a window's entries cost on every write of the cursor item; the docs quote it.
import { describe, expect, it } from 'vitest';
import { measureWindowItemCost, windowItemCostSection } from '../../bench/window-item-cost';

describe("a window's entries on every write of the cursor item", () => {
  it("bills the lease take and the cursor write alike for the item's size, and the compressed counts at under a quarter of their JSON", async () => {
    const [none, hour] = await measureWindowItemCost([0, 720]);
    expect(none).toMatchObject({ entries: 0, takeUnits: 1, cursorUnits: 1 });
    expect(hour!.takeUnits).toBe(hour!.cursorUnits);
    expect(hour!.takeUnits).toBeGreaterThan(2);
    expect(hour!.jsonTakeUnits).toBeGreaterThan(4 * hour!.takeUnits);
    expect(hour!.loopDollars).toBeGreaterThan(hour!.scheduleDollars);
    expect(windowItemCostSection([none!, hour!])).toContain('| 720 |');
  });
});
