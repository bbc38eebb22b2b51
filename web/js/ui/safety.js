// Strings and the notice of the safe start (issue 14): when something stored passed the
// checks but threw while the page was drawn, the roll screen starts with its defaults and
// the notice of data set aside says so (with the download of what was stored).

import { setAside } from "../lib/storage.js";
import "./strings.js";

/** Report the safe start: the form state it replaces is copied aside, with the error. */
export function safeStartNotice(state, error) {
  let copy;
  try {
    copy = JSON.parse(JSON.stringify(state));
  } catch {
    copy = null;
  }
  setAside("pyrules:state", { state: copy, error: String((error && error.message) || error) }, "start");
}
