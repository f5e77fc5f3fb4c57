"""What the page tests beyond tests/web/test_web.py share: its fixtures and helpers, and a few more.

The fixtures (`server`, `browser`) and helpers come from tests/web/test_web.py, so a change there (the
server's address, its token) reaches every page test; a test module takes the fixtures with
`server, browser = web_helpers.server, web_helpers.browser` (an assignment: pytest finds them, and a
test's parameter of the same name does not shadow an import).
"""
from __future__ import annotations

import sys
from typing import Any, List, Optional

from helpers import ROOT

# test_web.py lives in tests/web/, whose page tests have that folder on sys.path (pytest puts it there);
# a test elsewhere that imports these helpers finds it too, under the same module name pytest gives it
if str(ROOT / "tests" / "web") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests" / "web"))

from test_web import (SAMPLES, SHOTS, Server, board, browser, cells, cli_json, open_page, paste, run_cli,  # noqa: F401
                      server, shot, wait_message)


def message(page) -> str:
    """The message box's text."""
    return page.text_content('[data-output="message"]') or ""


def output(page, name: str) -> str:
    """The text of a data-output element."""
    return page.text_content(f'[data-output="{name}"]') or ""


def click(page, r: int, c: int, button: str = "left") -> None:
    """Click the cell at (r, c)."""
    page.click(f'[data-row="{r}"][data-col="{c}"]', button=button)


def attr(page, r: int, c: int, name: str) -> Optional[str]:
    """One attribute of the cell at (r, c)."""
    return page.get_attribute(f'[data-row="{r}"][data-col="{c}"]', name)


def wait_job(page, timeout: float = 60000) -> None:
    """Wait until no job is running (the busy sign hidden)."""
    page.wait_for_selector('[data-output="busy"]', state="hidden", timeout=timeout)


def start_game(page, rows: int, cols: int, mines: int, *, rule: str = "snr", choose: bool = False,
               noguess: bool = False) -> None:
    """Fill the new-game inputs and press New game (or No-guess game); waits for the game's message."""
    page.fill('[data-input="rows"]', str(rows))
    page.fill('[data-input="cols"]', str(cols))
    page.fill('[data-input="game-mines"]', str(mines))
    page.select_option('[data-input="first-click"]', rule)
    page.select_option('[data-input="first-cell"]', "choose" if choose else "centre")
    page.click('[data-action="new-noguess"]' if noguess else '[data-action="new-game"]')
    wait_job(page)


def layout(page) -> List[str]:
    """The game's mine layout, read from the page's state (rows of '*' and '.')."""
    return page.evaluate("S.game && S.game.layout")


def state(page, expression: str) -> Any:
    """A value of the page's script state (for checks a person makes by looking)."""
    return page.evaluate(expression)


def press(page, action: str, start: str, timeout: float = 60000) -> str:
    """Clear the message, press a data-action button and wait for a message starting with `start`."""
    page.evaluate("document.querySelector('[data-output=message]').textContent = ''")
    page.click(f'[data-action="{action}"]')
    return wait_message(page, start, timeout)
