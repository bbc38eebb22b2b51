// Between API params and the raw values a SideForm keeps (no DOM).

/** Raw form values (as SideForm keeps them) from API params. */
export function rawFrom(fields, params) {
  const values = {};
  for (const field of fields) {
    const value = params ? params[field.name] : undefined;
    if (value === undefined) continue;
    if (field.type === "bool") values[field.name] = Boolean(value);
    else if (value === null) values[field.name] = "";
    else if (Array.isArray(value)) values[field.name] = value.join(", ");
    else values[field.name] = String(value);
  }
  return values;
}

/** A pseudo-system for SideForm: only `fields` and `id` are read. */
export function formSystem(id, fields) {
  return { id, fields, outcomes: [] };
}
