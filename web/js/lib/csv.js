// CSV cells for the history export (pure: tested with node --test).

/**
 * One CSV cell. A text a spreadsheet would read as a formula (it starts with =, +, -, @,
 * a tab or a carriage return: OWASP "CSV injection") gets a leading apostrophe, so it
 * shows as text; numbers stay numbers. Then the usual quoting.
 */
export function csvCell(value) {
  let text = String(value ?? "");
  if (typeof value !== "number" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n\t]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

