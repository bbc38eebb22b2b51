"""The one error base class of the engine: every refusal names a code, a field (or None) and
a bilingual message. :class:`~pyrules.fields.ParamError` (a bad parameter),
:class:`ApiError` (a bad request) and :class:`~pyrules.cli.CliError` (a bad command line)
derive from it, so :func:`pyrules.api.handle` answers all of them the same way.
"""

from __future__ import annotations

from typing import Any

from .i18n import message


class PyrulesError(Exception):
    """A refusal: ``code`` (e.g. ``invalid_param``), ``field`` (dotted path or None) and a
    message key of :mod:`pyrules.i18n` with its arguments."""

    code = "invalid_param"

    def __init__(self, field: str | None, key: str, **args: Any) -> None:
        super().__init__(key)
        self.field = field
        self.key = key
        self.args_ = args

    def message(self, lang: str) -> str:
        return message(self.key, lang, **self.args_)

    def prefixed(self, prefix: str) -> PyrulesError:
        """The same refusal with ``field`` under ``prefix`` (``actor.bonus``)."""
        clone = type(self).__new__(type(self))
        clone.__dict__.update(self.__dict__)
        Exception.__init__(clone, self.key)
        clone.field = f"{prefix}.{self.field}" if self.field else prefix
        return clone


class ApiError(PyrulesError):
    """A request the API refuses, with its own ``code`` (``unknown_op``, ``invalid_json``...)."""

    def __init__(self, code: str, field: str | None, key: str, **args: Any) -> None:
        super().__init__(field, key, **args)
        self.code = code
