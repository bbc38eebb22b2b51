import assert from "node:assert/strict";
import { test } from "node:test";

import { keptBuild } from "../../web/js/lib/kept-snapshot.js";

test("the hint names a build only when it holds one: anything else names none", () => {
  assert.equal(keptBuild(JSON.stringify("3adde0497f28cdc7")), "3adde0497f28cdc7");
  for (const raw of [null, "", "{not json", "null", "42", "true", '["3adde0497f28cdc7"]', '{"build":"x"}', '""', JSON.stringify("x".repeat(101))]) {
    assert.equal(keptBuild(raw), null, raw);
  }
});
