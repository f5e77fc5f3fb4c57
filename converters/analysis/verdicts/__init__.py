"""Verdicts a skeptic can check: "must I guess here?" for a position, and every click of a replayed game audited.

This room owns judgements over whole positions and games, built on the rest of analysis. `verdict` says
no-guess or guess with its evidence (a proof, or the solutions that make the guess); `certificate`
re-checks that evidence by additions and enumeration, trusting nothing else of mineconv; `audit` plays a
replay again and rates each opening; `regions` finds the zero regions and the 3BV in numpy. `verdict()`
and `audit()` stay `verdicts.verdict.verdict` and `verdicts.audit.audit`: here their names would hide
their modules.
"""
from .audit import Audit, ClickAudit
from .regions import Regions
from .verdict import Verdict, check_certificate

__all__ = ["Audit", "ClickAudit", "Regions", "Verdict", "check_certificate"]
