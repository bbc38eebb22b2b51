// The app's screens as tabs (WAI-ARIA tabs pattern): Lancer (home), Personnages, Combat,
// Statistiques, Historique. Arrow keys, Home and End move between tabs (roving
// tabindex); the choice is kept for the tab's life (sessionStorage), so a reload comes
// back to the same screen while a new visit opens on the roller.

const KEY = "pyrules:view";

export class Views {
  /**
   * @param {HTMLElement} tablist  element with role=tablist holding [role=tab][data-view] buttons
   * @param {Function} onShow      called with (name, previous) after a screen is shown
   */
  constructor(tablist, onShow) {
    this.tablist = tablist;
    this.tabs = [...tablist.querySelectorAll("[role=tab]")];
    this.onShow = onShow;
    this.current = null;
    for (const tab of this.tabs) {
      tab.addEventListener("click", () => this.show(tab.dataset.view));
      tab.addEventListener("keydown", (event) => this.key(event, tab));
    }
  }

  names() {
    return this.tabs.map((tab) => tab.dataset.view);
  }

  initial() {
    let saved = null;
    try {
      saved = sessionStorage.getItem(KEY);
    } catch {
      /* no sessionStorage */
    }
    return this.names().includes(saved) ? saved : this.names()[0];
  }

  show(name, { focus = false } = {}) {
    if (!this.names().includes(name)) return;
    const previous = this.current;
    this.current = name;
    for (const tab of this.tabs) {
      const selected = tab.dataset.view === name;
      tab.setAttribute("aria-selected", String(selected));
      tab.tabIndex = selected ? 0 : -1;
      const panel = document.getElementById(tab.getAttribute("aria-controls"));
      if (panel) panel.hidden = !selected;
      if (selected && focus) tab.focus();
    }
    document.body.dataset.view = name;
    try {
      sessionStorage.setItem(KEY, name);
    } catch {
      /* no sessionStorage */
    }
    // Not at the first show: the page is at its top (or where a reload left it), and asking
    // for the scroll position would lay out the whole page while it starts.
    if (previous !== null && previous !== name) window.scrollTo({ top: 0, behavior: "auto" });
    this.onShow?.(name, previous);
  }

  key(event, tab) {
    const index = this.tabs.indexOf(tab);
    let next = null;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") next = (index + 1) % this.tabs.length;
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = (index - 1 + this.tabs.length) % this.tabs.length;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = this.tabs.length - 1;
    if (next === null) return;
    event.preventDefault();
    this.show(this.tabs[next].dataset.view, { focus: true });
  }
}
