// The fight as the combat tracker keeps it, and what it asks the engine about it.
//
// The page keeps the state (participants in turn order, turn, round, log); the engine's
// `fight` op judges it (document 004): who can still act, whose turn it is, who comes next,
// whether an action is still possible, and which entry of a participant fights for each
// kind of action. Nothing here decides any of it: these helpers build the question and
// read the last answer.

export const FIGHT_KEY = "pyrules:fight";
export const UNDO_KEY = "pyrules:fight-undo";
export const UNDO_MAX = 50;
export const LOG_MAX = 300;
export const AUTO = "auto";

export function emptyFight() {
  return { round: 1, turn: 0, participants: [], log: [] };
}

export function validFight(value) {
  return value && typeof value === "object" && Array.isArray(value.participants) && Array.isArray(value.log) && Number.isInteger(value.round);
}

/**
 * The engine request judging `fight`: the participants in order and who acted this round.
 * `withParams`: each skill as {label, params} (a `combat` action in the fight rolls them).
 */
export function fightRequest(fight, withParams = false) {
  const acted = [...new Set(fight.log.filter((line) => line.round === fight.round && line.actorId).map((line) => line.actorId))];
  const skill = (s) => (withParams ? { label: s.label || "", params: s.params || {} } : s.label || "");
  return {
    op: "fight",
    fight: {
      round: fight.round,
      turn: fight.turn,
      participants: fight.participants.map((p) => ({ id: p.id, ardeur: p.ardeur, unarmed: Boolean(p.unarmed), skills: p.skills.map(skill) })),
      acted,
    },
  };
}

/**
 * The `combat` request of one action in `fight` (one engine call): the fight as it stands,
 * each side by id, with the entry picked by hand (an index) or none (the engine names it).
 */
export function actionRequest(fight, { kind, concede, ardeurFloor, actor, target, actorSkill, targetSkill }) {
  const side = (id, choice) => (choice === AUTO || choice === undefined ? { id } : { id, skill: Number(choice) });
  return {
    op: "combat",
    params: { kind, concede: kind === "conflict" && Boolean(concede), ...(ardeurFloor === false ? { ardeur_floor: false } : {}) },
    fight: fightRequest(fight, true).fight,
    actor: side(actor, actorSkill),
    opponent: kind === "ranged" ? { id: target } : side(target, targetSkill),
  };
}

/** The engine's judgement of one participant in `judged` (the `fight` answer), or null. */
export function judgedOf(judged, id) {
  return judged?.participants?.[id] || null;
}

/** Whether the engine said this participant can still act. */
export function canAct(judged, id) {
  return Boolean(judgedOf(judged, id)?.can_act);
}

/** The entry a participant uses for this kind of action: the one picked by hand, else the engine's. */
export function skillFor(participant, kind, choice, judged) {
  const skills = participant.skills;
  if (choice !== AUTO && skills[Number(choice)]) return skills[Number(choice)];
  const index = judgedOf(judged, participant.id)?.skills?.[kind];
  return skills[index] || skills[0];
}
