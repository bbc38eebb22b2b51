"""QR codes of replay links, made on the device by segno (pure Python, no network).

``qr(text)`` answers the module matrix; the page draws it (web/js/ui/qr.js). Nothing here
reads the text: it is encoded as given, so a link stays a link.
"""

from __future__ import annotations

from typing import Any

from .fields import ParamError
from .i18n import Text

TEXT_MAX = 2000  # characters: a replay link is a few hundred; a QR code holds at most ~2300
LABEL = Text("Texte du code QR", "QR code text")


def check_text(text: Any) -> str:
    """The text a QR code may encode (what ``qr`` refuses, without encoding it)."""
    if not isinstance(text, str) or not text:
        raise ParamError("text", "not_text", label=LABEL)
    if len(text) > TEXT_MAX:
        raise ParamError("text", "too_long", label=LABEL, max=TEXT_MAX)
    return text


def qr(text: Any) -> dict[str, Any]:
    """{"size", "version", "error", "rows"}: rows of "0"/"1" (dark = 1), no quiet zone."""
    text = check_text(text)
    # Error correction M (15 % of the code can be lost), never a Micro QR: every phone's
    # camera app reads a plain QR code.
    import segno  # at the first use (see pyrules.systems.notation._lark)

    code = segno.make(text, error="m", micro=False, boost_error=False)
    rows = ["".join("1" if bit else "0" for bit in row) for row in code.matrix]
    return {"size": len(rows), "version": code.version, "error": code.error, "rows": rows}

