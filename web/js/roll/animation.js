// The dice animation of the roll on the result card, and skipping it: any key or pointer
// press lands the dice at once (Space and Enter then do nothing else).

export class RollAnimation {
  constructor(doc = document) {
    this.doc = doc;
    this.control = null; // stage.js's playRoll control while the dice move
    this.keys = (event) => {
      if (!this.control) return;
      if (event.key === " " || event.key === "Enter") event.preventDefault();
      this.finish();
    };
    this.pointer = () => this.finish();
  }

  get running() {
    return this.control !== null;
  }

  /** playRoll's control: the dice move until landed() (a control already done: nothing to skip). */
  started(control) {
    this.control = control.done ? null : control;
    if (this.control) {
      this.doc.addEventListener("keydown", this.keys, true);
      this.doc.addEventListener("pointerdown", this.pointer, true);
    }
  }

  landed() {
    this.control = null;
    this.doc.removeEventListener("keydown", this.keys, true);
    this.doc.removeEventListener("pointerdown", this.pointer, true);
  }

  /** Land the dice now, if they are moving. */
  finish() {
    if (this.control) this.control.skip();
  }
}
