"""Generated relation-extraction training data: templates x lexicons.

The embedded learned model ``re-minilm`` is trained on sentences written here rather than
on TACRED (whose licence forbids shipping anything derived from it). A :class:`Template`
is a sentence with slots (``"{P} was born in {CITY}."``) and the labelled entity pairs it
states; :func:`generate` fills the slots from the offline lexicons of
:mod:`mtwidgets.lang.names` plus faker names, and emits one
:class:`~mtwidgets.core.inputs.RelationInput` per pair, with typed spans built from offsets.

Generalisation is measured honestly: :func:`split_templates` holds out whole templates
(about a quarter of each label's wordings) and :func:`build_lexicons` holds out a fifth of
every entity pool, so the held-out split pairs unseen wordings with unseen names.

Slot syntax
-----------
``{KIND}``, ``{KIND2}``, ``{KIND.attr}``: an entity of a kind (``P`` person, ``O`` any
organisation, ``C`` company, ``I`` institution, ``U`` university, ``CITY``, ``USCITY``,
``STATE``, ``CTRY``, ``NAT``, ``REL``, ``TITLE``, ``LEAD`` (a leading title), ``AGE``,
``AGEYO`` (``"52-year-old"``), ``YEAR``, ``BYEAR``/``DYEAR`` (birth/death-era years),
``DAY`` (a full date), ``CAUSE``, ``ILL`` (a disease), ``CHARGE``, ``NUM``, ``ALT`` (another
name of the same-numbered person); ``CITY.country``, ``USCITY.state``, ``I.acr``,
``C.short`` and ``C.url`` are derived from their entity. Lower-case slots are words that
agree with a person's gender: ``{he}``, ``{his2}``, ``{husband2}`` (the digit names the
person described, default 1); the pronouns among them are PERSON mentions and can be
relation arguments, so coreference is learnable.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from ..core.spans import Span
from ..lang import names as lexicons
from ..re.entities import lexicon_type
from ..re.inputs import RelationInput
from ..re.labels import NO_RELATION, TACRED_LABELS

# --------------------------------------------------------------------------------------
# Templates
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Template:
    """A sentence with slots and the labelled (head slot, tail slot, label) pairs it states."""

    id: str
    label: str  # the primary pair's label; templates are grouped and split by it
    text: str
    pairs: tuple[tuple[str, str, str], ...]


_RAW: list[tuple[str, str, str, tuple[str, ...]]] = []


def _t(label: str, pair: str, text: str, *extras: str) -> None:
    _RAW.append((label, pair, text, extras))


def _n(pair: str, text: str, *extras: str) -> None:
    _t(NO_RELATION, pair, text, *extras)


# Pairs are "HEAD>TAIL"; extras are "HEAD>TAIL=label" or "HEAD>TAIL!" (no_relation).
E, T_, OR = "per:employee_of", "per:title", "per:origin"
RES_C, RES_N, RES_S = "per:cities_of_residence", "per:countries_of_residence", "per:stateorprovinces_of_residence"
DOB, DOD, AGE = "per:date_of_birth", "per:date_of_death", "per:age"
TOP, FOUNDED = "org:top_members/employees", "org:founded"

# per:title
_t(T_, "P>TITLE", "{P}, a {TITLE} at {O}, said the talks would resume next week.", f"P>O={E}")
_t(T_, "P>TITLE", "{TITLE} {P} arrived in {CITY} on Tuesday for a two-day visit.", "P>CITY!")
_t(T_, "P>TITLE", "{P} worked as a {TITLE} for nearly two decades before retiring.")
_t(T_, "P>TITLE", "The {TITLE}, {P}, declined to comment on the report.")
_t(T_, "P>TITLE", "{P} was appointed {TITLE} in {YEAR}.", "P>YEAR!")
_t(T_, "he>TITLE", "{P} spoke briefly to reporters; {he} has been a {TITLE} since {YEAR}.", f"P>TITLE={T_}")
_t(T_, "P>TITLE", "As {TITLE}, {P} has overseen a sharp rise in spending.")
_t(T_, "P>TITLE", "Former {TITLE} {P} will testify before the committee on Thursday.")
_t(T_, "P2>TITLE", "{P} thanked {TITLE} {P2} for the invitation.", "P>TITLE!", "P>P2!")
_t(T_, "P>TITLE", "{P}, who became {TITLE} last spring, is expected to attend.")

# per:employee_of
_t(E, "P>O", "{P} has worked for {O} since {YEAR}.", "P>YEAR!")
_t(E, "P>O", "{P}, an analyst at {O}, said prices would keep rising.")
_t(E, "P>O", '"We are not worried," said {P}, a spokesperson for {O}.')
_t(E, "P>O", "{P} joined {O} in {YEAR} as a {TITLE}.", f"P>TITLE={T_}")
_t(E, "P>O", "According to {P} of {O}, the deal is unlikely to close this year.")
_t(E, "P>O", "{O} hired {P} to run its office in {CITY}.", "O>CITY!")
_t(E, "P>O", "{P} is employed by {O} as an engineer.")
_t(E, "he>O", "{P} moved to {CITY} in {YEAR}, where {he} took a job with {O}.", f"P>O={E}", f"P>CITY={RES_C}")
_t(E, "P>U", "{P}, a professor at {U}, led the study.")
_t(E, "P2>O", "{P} said that {P2}, who works for {O}, had been told.", "P>O!", "P>P2!")
_t(E, "P>O", "{P} spent ten years at {O} before starting a consulting firm.")

# per:origin
_t(OR, "P>NAT", "The {NAT} {TITLE} {P} won the prize on Sunday.", f"P>TITLE={T_}")
_t(OR, "P>NAT", "{P}, a {NAT} citizen, was detained at the airport.")
_t(OR, "P>NAT", "{NAT}-born {P} moved to {CITY} in {YEAR}.", f"P>CITY={RES_C}")
_t(OR, "P>NAT", "{P}, who is {NAT}, has lived abroad for most of {his} life.")
_t(OR, "P>NAT", "Police identified the victim as {P}, a {AGE}-year-old {NAT} national.", f"P>AGE={AGE}")
_t(OR, "he>NAT", "{P} has spent years in {CTRY}, but {he} is {NAT} by birth.", f"P>NAT={OR}", f"P>CTRY={RES_N}")
_t(OR, "P>NAT", "The {NAT} novelist {P} was awarded the prize for {his} third book.")
_t(OR, "P>CTRY", "{P}, who comes from {CTRY}, arrived on a student visa.")
_t(OR, "P>NAT", "{P} is one of the best-known {NAT} writers of {his} generation.")

# per:religion
_t("per:religion", "P>REL", "{P}, a devout {REL}, prays every morning.")
_t("per:religion", "P>REL", "{P} was raised {REL} in a small town.")
_t("per:religion", "P>REL", "As a {REL}, {P} attends services every week.")
_t("per:religion", "P>REL", "{P} is a practising {REL} and a {father} of three.")
_t("per:religion", "P>REL", "{P} became a {REL} in {YEAR}.", "P>YEAR!")
_t("per:religion", "P>REL", "{P}, who is {REL}, said faith shaped {his} politics.")
_t("per:religion", "his>REL", "{P} rarely talks about {his} {REL} faith in public.", "P>REL=per:religion")
_t("per:religion", "P>REL", "The {REL} community leader {P} condemned the attack.")

# per:age
_t(AGE, "P>AGE", "{P}, {AGE}, was arrested on Friday.")
_t(AGE, "P>AGE", "{P} is {AGE} years old.")
_t(AGE, "P>AGE", "{P}, who is {AGE}, plans to retire next year.")
_t(AGE, "P>AGEYO", "The {AGEYO} {P} was the oldest player on the team.")
_t(AGE, "P>AGE", "{P} died at the age of {AGE}.")
_t(AGE, "P>AGE", "{P}, now {AGE}, still lives in {CITY}.", f"P>CITY={RES_C}")
_t(AGE, "He>AGE", "{P} took over the company last year. {He} is {AGE}.")
_t(AGE, "P>AGE", "{P} ({AGE}) finished second in the race.")
_t(AGE, "P>AGEYO", "{P}, a {AGEYO} {TITLE} from {CITY}, was among the victims.", f"P>TITLE={T_}", f"P>CITY={RES_C}")

# per:date_of_birth
_t(DOB, "P>DAY", "{P} was born on {DAY}.")
_t(DOB, "P>YEAR", "{P} was born in {YEAR} in {CITY}.", "P>CITY=per:city_of_birth")
_t(DOB, "P>DAY", "{P} (born {DAY}) is a {NAT} {TITLE}.", f"P>NAT={OR}", f"P>TITLE={T_}")
_t(DOB, "P>YEAR", "Born in {YEAR}, {P} grew up on a farm.")
_t(DOB, "P>DAY", "{P}'s date of birth is listed as {DAY}.")
_t(DOB, "he>YEAR", "{P} never knew {his} father; {he} was born in {YEAR}.", f"P>YEAR={DOB}")
_t(DOB, "P>YEAR", "{P}, born {YEAR}, is the youngest member of the board.")
_t(DOB, "P>DAY", "{P} came into the world on {DAY} in a small hospital.")

# per:date_of_death
_t(DOD, "P>DAY", "{P} died on {DAY} at {his} home in {CITY}.", "P>CITY=per:city_of_death")
_t(DOD, "P>DYEAR", "{P} passed away in {DYEAR}.")
_t(DOD, "P>DYEAR", "{P} ({BYEAR}-{DYEAR}) was a {NAT} {TITLE}.", f"P>BYEAR={DOB}", f"P>NAT={OR}", f"P>TITLE={T_}")
_t(DOD, "P>DAY", "{P}, who died {DAY}, was buried next to {his} parents.")
_t(DOD, "P>DYEAR", "{P} was killed in {DYEAR} during the uprising.")
_t(DOD, "he>DAY", "{P} fell ill last spring, and {he} died on {DAY}.", f"P>DAY={DOD}")
_t(DOD, "P>DAY", "The death of {P} on {DAY} shocked {his} colleagues.")
_t(DOD, "P>DYEAR", "{P} died in {DYEAR} after a long illness.")

# per:city_of_birth
COB = "per:city_of_birth"
_t(COB, "P>CITY", "{P} was born in {CITY}.")
_t(COB, "P>CITY", "Born in {CITY} in {YEAR}, {P} studied law at {U}.", f"P>YEAR={DOB}", "P>U=per:schools_attended")
_t(COB, "P>CITY", "{P}, a native of {CITY}, now lives in {CITY2}.", f"P>CITY2={RES_C}")
_t(COB, "P>CITY", "{CITY}-born {TITLE} {P} opened the festival.", f"P>TITLE={T_}")
_t(COB, "P>CITY", "{P} was born and raised in {CITY}.")
_t(COB, "P>CITY", "{P}'s birthplace, {CITY}, held a parade in {his} honour.")
_t(COB, "he>CITY", "{P} returned in {YEAR} to {CITY}, where {he} was born.", f"P>CITY={COB}")
_t(COB, "P>CITY", "{P} was born in {CITY} and died in {CITY2}.", "P>CITY2=per:city_of_death")
_t(COB, "P>CITY", "{P} was born in {CITY}, {CITY.country}.", "P>CITY.country=per:country_of_birth")
_t(COB, "P>USCITY", "{P} was born in {USCITY}, {USCITY.state}, in {YEAR}.",
   "P>USCITY.state=per:stateorprovince_of_birth", f"P>YEAR={DOB}")
_t(COB, "P2>CITY", "{P} congratulated {P2}, who was born in {CITY}.", "P>CITY!", "P>P2!")

# per:country_of_birth
CNB = "per:country_of_birth"
_t(CNB, "P>CTRY", "{P} was born in {CTRY} in {YEAR}.", f"P>YEAR={DOB}")
_t(CNB, "P>CTRY", "Born in {CTRY}, {P} moved to {CITY} as a child.", f"P>CITY={RES_C}")
_t(CNB, "P>CTRY", "{P}, who was born in {CTRY}, became a citizen of {CTRY2} in {YEAR}.", f"P>CTRY2={OR}")
_t(CNB, "P>CITY.country", "{P} was born in {CITY}, {CITY.country}.", f"P>CITY={COB}")
_t(CNB, "P>CTRY", "The {CTRY}-born {TITLE} {P} gave a concert.", f"P>TITLE={T_}")
_t(CNB, "P>CTRY", "A native of {CTRY}, {P} speaks four languages.")
_t(CNB, "he>CTRY", "{P} rarely speaks about {CTRY}, the country where {he} was born.", f"P>CTRY={CNB}")
_t(CNB, "P>CTRY", "{P} was born in {CTRY} but grew up in {CTRY2}.", f"P>CTRY2={RES_N}")

# per:stateorprovince_of_birth
SOB = "per:stateorprovince_of_birth"
_t(SOB, "P>STATE", "{P} was born in {STATE} in {YEAR}.", f"P>YEAR={DOB}")
_t(SOB, "P>USCITY.state", "{P} was born in {USCITY}, {USCITY.state}.", f"P>USCITY={COB}")
_t(SOB, "P>STATE", "Born in rural {STATE}, {P} started working at fourteen.")
_t(SOB, "P>STATE", "{STATE} native {P} won the race.")
_t(SOB, "P>STATE", "{P}, who was born in {STATE}, moved to {STATE2} after college.", f"P>STATE2={RES_S}")
_t(SOB, "he>STATE", "{P} says {he} was born in {STATE} to a family of farmers.", f"P>STATE={SOB}")
_t(SOB, "P>STATE", "The {STATE}-born {TITLE} {P} signed the deal.", f"P>TITLE={T_}")
_t(SOB, "P>STATE", "{P} grew up far from {STATE}, the state where {he} was born.")

# per:city_of_death
COD = "per:city_of_death"
_t(COD, "P>CITY", "{P} died in {CITY} on {DAY}.", f"P>DAY={DOD}")
_t(COD, "P>CITY", "{P} died at a hospital in {CITY} after a long illness.")
_t(COD, "P>CITY", "{P} was killed in {CITY} in {DYEAR}.", f"P>DYEAR={DOD}")
_t(COD, "P>CITY", "{P}, who died in {CITY} last week, was {AGE}.", f"P>AGE={AGE}")
_t(COD, "P>CITY", "{P} passed away peacefully at {his} home in {CITY}.")
_t(COD, "he>CITY", "{P} spent {his} final years in {CITY}, where {he} died in {DYEAR}.", f"P>CITY={COD}", f"P>DYEAR={DOD}")
_t(COD, "P>CITY", "{P} died of {CAUSE} in {CITY}.", "P>CAUSE=per:cause_of_death")
_t(COD, "P>CITY", "{P}, born in {CITY2}, died in {CITY} in {DYEAR}.", f"P>CITY2={COB}", f"P>DYEAR={DOD}")
_t(COD, "P>CITY", "{P} died in {CITY}, {CITY.country}, at the age of {AGE}.",
   "P>CITY.country=per:country_of_death", f"P>AGE={AGE}")
_t(COD, "P>USCITY", "{P} died in {USCITY}, {USCITY.state}.", "P>USCITY.state=per:stateorprovince_of_death")

# per:country_of_death
CND = "per:country_of_death"
_t(CND, "P>CTRY", "{P} died in {CTRY} in {DYEAR}.", f"P>DYEAR={DOD}")
_t(CND, "P>CTRY", "{P} died in exile in {CTRY}.")
_t(CND, "P>CITY.country", "{P} died in {CITY}, {CITY.country}, on {DAY}.", f"P>CITY={COD}", f"P>DAY={DOD}")
_t(CND, "P>CTRY", "{P} was killed in {CTRY} while covering the war.")
_t(CND, "P>CTRY", "{P}, who died in {CTRY} last month, was buried in {CTRY2}.", "P>CTRY2!")
_t(CND, "he>CTRY", "{P} fled in {YEAR}, and {he} died in {CTRY} ten years later.", f"P>CTRY={CND}")
_t(CND, "P>CTRY", "The {NAT} {TITLE} {P} died in {CTRY} on Sunday.", f"P>NAT={OR}", f"P>TITLE={T_}")
_t(CND, "P>CTRY", "{P} passed away in {CTRY}, {his} family said.")

# per:stateorprovince_of_death
SOD = "per:stateorprovince_of_death"
_t(SOD, "P>STATE", "{P} died in {STATE} on {DAY}.", f"P>DAY={DOD}")
_t(SOD, "P>USCITY.state", "{P} died at {his} home in {USCITY}, {USCITY.state}.", f"P>USCITY={COD}")
_t(SOD, "P>STATE", "{P} was killed in a crash in rural {STATE}.")
_t(SOD, "P>STATE", "{P}, who died in {STATE} last year, left {his} fortune to charity.")
_t(SOD, "he>STATE", "{P} retired to {STATE2}, but {he} died in {STATE} in {DYEAR}.", f"P>STATE2={RES_S}", f"P>STATE={SOD}")
_t(SOD, "P>STATE", "{P} passed away in {STATE} at the age of {AGE}.", f"P>AGE={AGE}")

# per:cities_of_residence
_t(RES_C, "P>CITY", "{P} lives in {CITY} with {his} family.")
_t(RES_C, "P>CITY", "{P}, a resident of {CITY}, was hurt in the crash.")
_t(RES_C, "P>CITY", "{P} moved to {CITY} in {YEAR}.")
_t(RES_C, "P>CITY", "{P}, who has lived in {CITY} for years, opened a restaurant.")
_t(RES_C, "P>CITY", "{P} of {CITY} won the lottery.")
_t(RES_C, "he>CITY", "{P} left {CTRY} as a teenager; today {he} lives in {CITY}.", f"P>CITY={RES_C}", f"P>CTRY={RES_N}")
_t(RES_C, "P>CITY", "{P} grew up in {CITY} before moving to {CITY2}.", f"P>CITY2={RES_C}")
_t(RES_C, "P>CITY", "{P} now splits {his} time between {CITY} and {CITY2}.", f"P>CITY2={RES_C}")
_t(RES_C, "P>CITY", "{P}, {AGE}, of {CITY}, was charged with {CHARGE}.", f"P>AGE={AGE}", "P>CHARGE=per:charges")

# per:countries_of_residence
_t(RES_N, "P>CTRY", "{P} has lived in {CTRY} since {YEAR}.")
_t(RES_N, "P>CTRY", "{P} moved to {CTRY} to work as a {TITLE}.", f"P>TITLE={T_}")
_t(RES_N, "P>CTRY", "{P}, who now lives in {CTRY}, declined to be interviewed.")
_t(RES_N, "P>CTRY", "{P} emigrated to {CTRY} in {YEAR}.")
_t(RES_N, "P>CTRY", "{P} spent two decades living in {CTRY} before returning home.")
_t(RES_N, "he>CTRY", "{P} says {he} has made {CTRY} {his} home.", f"P>CTRY={RES_N}")
_t(RES_N, "P>CTRY", "{P}, a {NAT} who lives in {CTRY}, wrote the report.", f"P>NAT={OR}")
_t(RES_N, "P>CTRY", "{P} settled in {CTRY} after the war.")

# per:stateorprovinces_of_residence
_t(RES_S, "P>STATE", "{P} lives in {STATE} with {his} two children.")
_t(RES_S, "P>STATE", "{P}, a {STATE} resident, filed the lawsuit.")
_t(RES_S, "P>STATE", "{P} moved to {STATE} in {YEAR}.")
_t(RES_S, "P>STATE", "{P} has lived in {STATE} for most of {his} life.")
_t(RES_S, "P>USCITY.state", "{P} lives in {USCITY}, {USCITY.state}.", f"P>USCITY={RES_C}")
_t(RES_S, "he>STATE", "{P} retired in {YEAR}, and {he} now lives in {STATE}.", f"P>STATE={RES_S}")
_t(RES_S, "P>STATE", "{P}, a farmer from {STATE}, testified before the committee.")

# per:cause_of_death
CAU = "per:cause_of_death"
_t(CAU, "P>CAUSE", "{P} died of {CAUSE} on {DAY}.", f"P>DAY={DOD}")
_t(CAU, "P>CAUSE", "{P} died from {CAUSE} at the age of {AGE}.", f"P>AGE={AGE}")
_t(CAU, "P>CAUSE", "{P}'s family said the cause of death was {CAUSE}.")
_t(CAU, "P>ILL", "{P}, who had been battling {ILL} for years, died on Sunday.")
_t(CAU, "P>ILL", "{P} succumbed to {ILL} in {DYEAR}.", f"P>DYEAR={DOD}")
_t(CAU, "P>CAUSE", "{P}'s death was caused by {CAUSE}, the coroner said.")
_t(CAU, "he>ILL", "{P} was diagnosed last year, and {he} died of {ILL} in March.", f"P>ILL={CAU}")
_t(CAU, "P>CAUSE", "Doctors said {CAUSE} claimed the life of {P}.")
_t(CAU, "P>CAUSE", "{P}, {AGE}, died of {CAUSE}, {his} spokesperson said.", f"P>AGE={AGE}")

# per:charges
CH = "per:charges"
_t(CH, "P>CHARGE", "{P} was charged with {CHARGE} on Monday.")
_t(CH, "P>CHARGE", "{P} was convicted of {CHARGE} and sentenced to ten years in prison.")
_t(CH, "P>CHARGE", "Prosecutors accused {P} of {CHARGE}.")
_t(CH, "P>CHARGE", "{P} pleaded not guilty to {CHARGE}.")
_t(CH, "P>CHARGE", "{P}, who faces {CHARGE} charges, was released on bail.")
_t(CH, "P>CHARGE", "{P} was arrested in {CITY} on suspicion of {CHARGE}.", "P>CITY!")
_t(CH, "he>CHARGE", "{P} denies the allegations; {he} is accused of {CHARGE}.", f"P>CHARGE={CH}")
_t(CH, "P2>CHARGE", "Prosecutor {P} accused {P2} of {CHARGE}.", "P>CHARGE!", "P>P2!")
_t(CH, "P>CHARGE", "A court found {P} guilty of {CHARGE} last year.")

# per:schools_attended
SCH = "per:schools_attended"
_t(SCH, "P>U", "{P} graduated from {U} in {YEAR}.", "P>YEAR!")
_t(SCH, "P>U", "{P} studied economics at {U}.")
_t(SCH, "P>U", "{P}, a {U} graduate, founded the charity.")
_t(SCH, "P>U", "{P} earned a law degree from {U}.")
_t(SCH, "P>U", "After finishing high school, {P} enrolled at {U}.")
_t(SCH, "he>U", "{P} grew up in {CITY}, and {he} later attended {U}.", f"P>U={SCH}", f"P>CITY={RES_C}")
_t(SCH, "P>U", "{P} holds a doctorate from {U}.")
_t(SCH, "P>U", "{P} dropped out of {U} to start a company.")

# per:spouse
SP = "per:spouse"
_t(SP, "P>P2", "{P} married {P2} in {YEAR}.")
_t(SP, "P>P2", "{P} and {his} {husband2} {P2} live in {CITY}.", f"P>CITY={RES_C}", f"P2>CITY={RES_C}")
_t(SP, "P>P2", "{P}, the {husband} of {P2}, declined to comment.")
_t(SP, "P>P2", "{P}'s {husband2}, {P2}, attended the ceremony.")
_t(SP, "P>P2", "{P} is survived by {his} {husband2}, {P2}.")
_t(SP, "P>P2", "{P} and {P2} have been married since {YEAR}.")
_t(SP, "he>P2", "{P} met {P2} at university, and {he} married {him2} two years later.", f"P>P2={SP}")
_t(SP, "P>P2", "{P} divorced {P2} in {YEAR}.")
_t(SP, "P2>P3", "{P} attended the wedding of {P2} and {P3}.", "P>P2!")

# per:siblings
SIB = "per:siblings"
_t(SIB, "P>P2", "{P} and {his} {brother2} {P2} founded the band together.")
_t(SIB, "P>P2", "{P}, the {brother} of {P2}, runs the farm.")
_t(SIB, "P>P2", "{P2}'s {brother}, {P}, spoke at the funeral.")
_t(SIB, "P>P2", "{P} is survived by {his} {brother2}, {P2}.")
_t(SIB, "P>P2", "{P} and {P2} are siblings who grew up in {CITY}.", f"P>CITY={RES_C}")
_t(SIB, "P>P2", "{P} visited {his} {brother2} {P2} in the hospital.")
_t(SIB, "his>P2", "{P} said {his} {brother2} {P2} had been unwell.", f"P>P2={SIB}")
_t(SIB, "P>P2", "{P} shares a house with {his} {brother2}, {P2}.")

# per:children (the tail is a child of the head)
CHI, PAR = "per:children", "per:parents"
_t(CHI, "P>P2", "{P} and {his} {son2} {P2} run the family farm.")
_t(CHI, "P>P2", "{P2}, the {son2} of {P}, was elected to the council.")
_t(CHI, "P>P2", "{P} is survived by {his} {son2}, {P2}.")
_t(CHI, "P>P2", "{P}'s {son2} {P2} took over the company in {YEAR}.")
_t(CHI, "P>P2", "{P} has a {son2}, {P2}, who lives in {CITY}.", f"P2>CITY={RES_C}")
_t(CHI, "P>P2", "{P2} was born to {P} in {YEAR}.", f"P2>YEAR={DOB}")
_t(CHI, "he>P2", "{P} said {he} is proud of {his} {son2} {P2}.", f"P>P2={CHI}")
_t(CHI, "P>P2", "{P} named {his} {son2} {P2} after a famous singer.")

# per:parents (the tail is a parent of the head)
_t(PAR, "P>P2", "{P}, the {son} of {P2}, joined the army.")
_t(PAR, "P>P2", "{P} was raised by {his} {father2}, {P2}.")
_t(PAR, "P>P2", "{P2}'s {son} {P} joined the firm last year.")
_t(PAR, "P>P2", "{P} was born to {P2} and {P3} in {CITY}.", f"P>P3={PAR}", f"P>CITY={COB}")
_t(PAR, "P>P2", "{P}'s {father2}, {P2}, was a {TITLE}.", f"P2>TITLE={T_}")
_t(PAR, "P>P2", "{P} inherited the business from {his} {father2} {P2}.")
_t(PAR, "his>P2", "{P} grew up poor; {his} {father2} {P2} worked in a factory.", f"P>P2={PAR}")
_t(PAR, "P>P2", "{P2}, {P}'s {father2}, died in {DYEAR}.", f"P2>DYEAR={DOD}")

# per:other_family
OF = "per:other_family"
_t(OF, "P>P2", "{P} and {his} {kin2} {P2} opened a bakery.")
_t(OF, "P>P2", "{P}, the {kin} of {P2}, attended the hearing.")
_t(OF, "P>P2", "{P} is survived by {his} {kin2}, {P2}.")
_t(OF, "P>P2", "{P2}'s {kin} {P} was also on the flight.")
_t(OF, "P>P2", "{P} visited {his} {kin2} {P2} in {CITY}.")
_t(OF, "his>P2", "{P} often says {his} {kin2} {P2} taught {him} to sail.", f"P>P2={OF}")
_t(OF, "P>P2", "{P} and {P2}, {his} {kin2}, run the family business.")
_t(OF, "P>P2", "{P} is related to {P2} by marriage.")

# per:alternate_names
AN = "per:alternate_names"
_t(AN, "P>ALT", "{P}, also known as {ALT}, was arrested in {CITY}.", "P>CITY!")
_t(AN, "P>ALT", "{P}, who was born {ALT}, changed {his} name in {YEAR}.")
_t(AN, "P>ALT", "{ALT}, better known by {his} stage name {P}, released a new album.")
_t(AN, "P>ALT", "{P} (born {ALT}) is a {NAT} {TITLE}.", f"P>NAT={OR}", f"P>TITLE={T_}")
_t(AN, "P>ALT", "{P} writes under the pen name {ALT}.")
_t(AN, "P>ALT", "{P} performed as {ALT} for many years.")
_t(AN, "P>ALT", "{P}, formerly known as {ALT}, won the election.")
_t(AN, "P>ALT", "Police said {P} had also used the alias {ALT}.")

# org:alternate_names
OAN = "org:alternate_names"
_t(OAN, "I>I.acr", "The {I} ({I.acr}) released its annual report on Monday.")
_t(OAN, "I>I.acr", "{I.acr}, short for {I}, was founded in {YEAR}.", f"I.acr>YEAR={FOUNDED}")
_t(OAN, "I>I.acr", "The {I}, known as {I.acr}, has offices in {CITY}.", "I>CITY!")
_t(OAN, "I>I.acr", "The {I} -- or {I.acr}, as it is commonly called -- opposed the bill.")
_t(OAN, "C>C.short", "{C}, known simply as {C.short}, reported higher profits.")
_t(OAN, "I>I.acr", "Officials from the {I} ({I.acr}) met in {CITY} on Friday.", "I>CITY!")
_t(OAN, "C>C.short", "{C.short}, officially {C}, reported a loss.")
_t(OAN, "I.acr>I", "{I.acr} stands for {I}.")

# org:founded_by
FB = "org:founded_by"
_t(FB, "C>P", "{C} was founded by {P} in {YEAR}.", f"C>YEAR={FOUNDED}")
_t(FB, "C>P", "{P} founded {C} in {YEAR}.", f"C>YEAR={FOUNDED}")
_t(FB, "C>P", "{C} founder {P} stepped down on Friday.")
_t(FB, "I>P", "{P}, who co-founded the {I}, spoke at the event.")
_t(FB, "C>P", "{P} started {C} in {his} garage.")
_t(FB, "C>P", "{C}, the company {P} established in {YEAR}, went public.", f"C>YEAR={FOUNDED}")
_t(FB, "C>P", "{P} set up {C} after leaving {O}.", f"P>O={E}")
_t(FB, "C>P", "{C} was created by {P}, a former {TITLE}.", f"P>TITLE={T_}")

# org:top_members/employees
_t(TOP, "O>P", "{P}, the {LEAD} of {O}, said the results were strong.", f"P>LEAD={T_}", f"P>O={E}")
_t(TOP, "O>P", "{O} {LEAD} {P} announced the deal on Monday.", f"P>LEAD={T_}", f"P>O={E}")
_t(TOP, "O>P", "{O} named {P} as its new {LEAD} on Thursday.", f"P>LEAD={T_}", f"P>O={E}")
_t(TOP, "O>P", "{P}, who heads {O}, rejected the offer.", f"P>O={E}")
_t(TOP, "O>P", "{P} has led {O} since {YEAR}.", f"P>O={E}")
_t(TOP, "O>P", "{O} is run by {P}, a former banker.", f"P>O={E}")
_t(TOP, "O>P", "Under {P}, {O} doubled its revenue.", f"P>O={E}")
_t(TOP, "O>P", "{O}'s {LEAD}, {P}, resigned over the scandal.", f"P>LEAD={T_}", f"P>O={E}")

# org:city_of_headquarters
CHQ, NHQ, SHQ = "org:city_of_headquarters", "org:country_of_headquarters", "org:stateorprovince_of_headquarters"
_t(CHQ, "O>CITY", "{O} is based in {CITY}.")
_t(CHQ, "C>CITY", "{CITY}-based {C} said sales fell.")
_t(CHQ, "C>CITY", "{C}, headquartered in {CITY}, employs thousands.")
_t(CHQ, "C>CITY", "{C} moved its headquarters to {CITY} in {YEAR}.")
_t(CHQ, "C>CITY", "{C}, a {CITY} company, makes medical devices.")
_t(CHQ, "C>CITY", "At its headquarters in {CITY}, {C} unveiled a new phone.")
_t(CHQ, "C>CITY", "{C} has its head office in {CITY}, {CITY.country}.", f"C>CITY.country={NHQ}")
_t(CHQ, "C>USCITY", "{C} is based in {USCITY}, {USCITY.state}.", f"C>USCITY.state={SHQ}")
_t(CHQ, "C>CITY", "{C}, which is based in {CITY}, opened a new office in {CITY2}.", "C>CITY2!")
_t(CHQ, "C>CITY", "{C}, based in {CITY}, sued {C2}.", "C2>CITY!", "C>C2!")

# org:country_of_headquarters
_t(NHQ, "C>CTRY", "{C} is based in {CTRY}.")
_t(NHQ, "C>CTRY", "{CTRY}'s largest bank, {C}, posted a profit.")
_t(NHQ, "C>CTRY", "{C}, headquartered in {CTRY}, makes steel.")
_t(NHQ, "C>CITY.country", "{C} is headquartered in {CITY}, {CITY.country}.", f"C>CITY={CHQ}")
_t(NHQ, "C>CTRY", "The {CTRY}-based {C} cut its forecast.")
_t(NHQ, "C>CTRY", "{C} moved its headquarters from {CTRY2} to {CTRY} in {YEAR}.", "C>CTRY2!")
_t(NHQ, "C>CTRY", "{C}, a company based in {CTRY}, won the contract.")
_t(NHQ, "I>CTRY", "The {I}, based in {CTRY}, issued a warning.")

# org:stateorprovince_of_headquarters
_t(SHQ, "C>STATE", "{C} is based in {STATE}.")
_t(SHQ, "C>STATE", "{STATE}-based {C} announced layoffs.")
_t(SHQ, "C>USCITY.state", "{C}, headquartered in {USCITY}, {USCITY.state}, is hiring.", f"C>USCITY={CHQ}")
_t(SHQ, "C>STATE", "{C} moved its headquarters to {STATE} in {YEAR}.")
_t(SHQ, "C>STATE", "{C}, a {STATE} company, builds boats.")
_t(SHQ, "C>STATE", "{C}, which has its head office in {STATE}, raised prices.")

# org:parents (the tail owns the head) / org:subsidiaries (the head owns the tail)
OP, OS = "org:parents", "org:subsidiaries"
_t(OP, "C>C2", "{C}, a subsidiary of {C2}, recalled its cars.")
_t(OP, "C>C2", "{C} is owned by {C2}.")
_t(OP, "C>C2", "{C2} acquired {C} in {YEAR}.")
_t(OP, "C>C2", "{C}, a unit of {C2}, reported a loss.")
_t(OP, "C>C2", "{C} became part of {C2} after the merger.")
_t(OP, "C>C2", "{C}, which is controlled by {C2}, closed two plants.")
_t(OP, "C>C2", "{C2}'s subsidiary {C} is based in {CITY}.", f"C>CITY={CHQ}")
_t(OS, "C>C2", "{C}, which owns {C2}, reported strong sales.")
_t(OS, "C>C2", "{C} bought {C2} for $2 billion.")
_t(OS, "C>C2", "{C} said its subsidiary {C2} would cut jobs.")
_t(OS, "C>C2", "{C2} is a wholly owned subsidiary of {C}.")
_t(OS, "C>C2", "{C} spun off its {C2} unit in {YEAR}.")
_t(OS, "C>C2", "{C2}, part of {C}, makes engines.")
_t(OS, "C>C2", "{C} controls {C2} through a holding company.")

# org:member_of / org:members
MO, MS = "org:member_of", "org:members"
_t(MO, "C>I", "{C} is a member of the {I}.")
_t(MO, "C>I", "{C} joined the {I} in {YEAR}.")
_t(MO, "C>I", "{C}, one of the founding members of the {I}, backed the plan.")
_t(MO, "C>I", "{C} was admitted to the {I} last year.")
_t(MO, "C>I", "As a member of the {I}, {C} must follow its rules.")
_t(MO, "I2>I", "The {I2} belongs to the {I}.")
_t(MS, "I>C", "The {I} has admitted {C} as a new member.")
_t(MS, "I>C", "The {I} counts {C} among its members.")
_t(MS, "I>C", "Members of the {I}, including {C}, voted against the proposal.")
_t(MS, "I>C", "The {I}, which includes {C} and {C2}, met on Monday.", f"I>C2={MS}")
_t(MS, "I>C", "{C} and {C2} are members of the {I}.", f"I>C2={MS}")
_t(MS, "I>C", "The {I} represents firms such as {C}.")

# org:founded / org:dissolved
DIS = "org:dissolved"
_t(FOUNDED, "C>YEAR", "{C} was founded in {YEAR}.")
_t(FOUNDED, "C>YEAR", "Founded in {YEAR}, {C} now has offices worldwide.")
_t(FOUNDED, "I>YEAR", "The {I} was established in {YEAR}.")
_t(FOUNDED, "C>YEAR", "{C}, which was set up in {YEAR}, sells furniture.")
_t(FOUNDED, "C>YEAR", "Since its founding in {YEAR}, {C} has grown quickly.")
_t(FOUNDED, "C>DAY", "{C} was incorporated on {DAY}.")
_t(FOUNDED, "I>YEAR", "The {I} was created in {YEAR} by {P}.", f"I>P={FB}")
_t(FOUNDED, "C>YEAR", "{C} dates back to {YEAR}.")
_t(DIS, "C>YEAR", "{C} went bankrupt in {YEAR}.")
_t(DIS, "C>YEAR", "{C} was dissolved in {YEAR}.")
_t(DIS, "C>YEAR", "{C}, which closed in {YEAR}, once employed thousands.")
_t(DIS, "I>YEAR", "The {I} was disbanded in {YEAR}.")
_t(DIS, "C>YEAR", "{C} ceased operations in {YEAR}.")
_t(DIS, "C>DAY", "{C} shut down on {DAY}.")
_t(DIS, "C>DYEAR", "{C} ({BYEAR}-{DYEAR}) was a {NAT} carmaker.", f"C>BYEAR={FOUNDED}")
_t(DIS, "C>YEAR", "{C} was liquidated in {YEAR} after years of losses.")

# org:website
WEB = "org:website"
_t(WEB, "C>C.url", "More information is available on {C}'s website, {C.url}.")
_t(WEB, "C>C.url", "{C} ({C.url}) makes software for hospitals.")
_t(WEB, "C>C.url", "Visit {C} online at {C.url}.")
_t(WEB, "C>C.url", "{C} posted the statement on its website, {C.url}.")
_t(WEB, "C>C.url", "{C}'s website, {C.url}, went offline on Monday.")
_t(WEB, "C>C.url", "For details, see {C.url}, the site run by {C}.")

# org:number_of_employees/members
NE = "org:number_of_employees/members"
_t(NE, "C>NUM", "{C} employs {NUM} people.")
_t(NE, "C>NUM", "{C}, which has {NUM} employees, is hiring.")
_t(NE, "I>NUM", "The {I} has {NUM} members.")
_t(NE, "C>NUM", "With {NUM} workers, {C} is the largest employer in {CITY}.")
_t(NE, "C>NUM", "{C}'s workforce of {NUM} will get a raise.")
_t(NE, "I>NUM", "The {I}, which represents {NUM} members, called a strike.")

# org:shareholders
SH = "org:shareholders"
_t(SH, "C>P", "{P} owns a 20 percent stake in {C}.")
_t(SH, "C>C2", "{C2} holds a large stake in {C}.")
_t(SH, "C>P", "{P}, the largest shareholder of {C}, opposed the merger.")
_t(SH, "C>P", "{P} bought a stake in {C} last year.")
_t(SH, "C>C2", "{C2} is the biggest investor in {C}.")
_t(SH, "C>P", "{C}'s shareholders include {P}.")

# org:political/religious_affiliation
PA = "org:political/religious_affiliation"
_t(PA, "I>REL", "The {I} is a {REL} charity.")
_t(PA, "I>REL", "The {REL} group {I} runs schools in {CTRY}.", "I>CTRY!")
_t(PA, "C>REL", "{C}, a {REL} publisher, printed the book.")
_t(PA, "I>REL", "The {I} is affiliated with the {REL} church.")
_t(PA, "I>REL", "The {I}, which has close ties to the {REL} church, opened a clinic.")
_t(PA, "I>REL", "Founded by {REL} missionaries, the {I} now runs hospitals.")

# More wordings per label (kept apart so the ids above stay stable).
_t(T_, "P>TITLE", "{P} is a {TITLE} by training.")
_t(T_, "P>TITLE", "Speaking as {TITLE}, {P} urged calm.")
_t(T_, "P>TITLE", "{P}, {O}'s {TITLE}, said the merger was on track.", f"P>O={E}")
_t(T_, "P>TITLE", "{P} retired as {TITLE} of {O} in {YEAR}.", f"P>O={E}", "P>YEAR!")
_t(T_, "P>TITLE", "The newly appointed {TITLE}, {P}, took office on Monday.")
_t(T_, "P>TITLE", "{P}'s career as a {TITLE} began in {CITY}.", "P>CITY!")
_t(E, "P>O", "{P}, who works at {O}, was not available for comment.")
_t(E, "P>O", "{O} employs {P} as a consultant.")
_t(E, "P>O", "{P} left {O} in {YEAR} after twenty years.", "P>YEAR!")
_t(E, "P>O", "{P}, a reporter for {O}, was detained in {CTRY}.", "P>CTRY!")
_t(E, "P>O", "{P} is on the staff of {O}.")
_t(E, "P>O", "An engineer at {O}, {P}, designed the bridge.")
_t(OR, "P>NAT", "{P} is {NAT} and speaks three languages.")
_t(OR, "P>NAT", "{P}, the {NAT} ambassador, met the president.")
_t(OR, "P>NAT", "The {NAT} rider {P} won the stage.")
_t(OR, "P>NAT", "{P} became the first {NAT} woman to climb the peak.")
_t("per:religion", "P>REL", "{P}, a lifelong {REL}, opposed the law.")
_t("per:religion", "P>REL", "Raised in a {REL} family, {P} later became a {TITLE}.", f"P>TITLE={T_}")
_t("per:religion", "P>REL", "{P} identifies as {REL}.")
_t("per:religion", "P>REL", "{P} converted to the {REL} faith in {YEAR}.", "P>YEAR!")
_t(AGE, "P>AGE", "{P}, aged {AGE}, was rescued on Sunday.")
_t(AGE, "P>AGE", "{P} turned {AGE} last month.")
_t(AGE, "P>AGE", "At {AGE}, {P} is the youngest member of the cabinet.")
_t(AGE, "P>AGEYO", "{P}, {AGEYO}, was taken to hospital.")
_t(DOB, "P>DAY", "{P} was born {DAY} in {CITY}.", f"P>CITY={COB}")
_t(DOB, "P>YEAR", "Records list {P}'s year of birth as {YEAR}.")
_t(DOB, "P>DAY", "{P}, who was born on {DAY}, grew up in {CITY}.", f"P>CITY={RES_C}")
_t(DOD, "P>DAY", "{P} died {DAY} in a hospital.")
_t(DOD, "P>DAY", "{P}, who passed away on {DAY}, was remembered as a generous {man}.")
_t(DOD, "P>DYEAR", "{P}'s death in {DYEAR} ended an era.")
_t(DOD, "P>DYEAR", "{P} lived until {DYEAR}.")
_t(COB, "P>CITY", "{P} grew up in {CITY2}, but {he} was born in {CITY}.", f"he>CITY={COB}", f"P>CITY2={RES_C}")
_t(COB, "P>CITY", "{P}, who was born in {CITY} in {YEAR}, studied medicine.", f"P>YEAR={DOB}")
_t(COB, "P>CITY", "{CITY}, where {P} was born, is a port city.")
_t(CNB, "P>CTRY", "{P} was born in {CTRY} to {NAT} parents.", f"P>NAT={OR}")
_t(CNB, "P>CTRY", "{CTRY}, where {P} was born, has honoured {him}.")
_t(CNB, "P>CTRY", "{P}, born in {CTRY} in {YEAR}, became a {TITLE}.", f"P>YEAR={DOB}", f"P>TITLE={T_}")
_t(CNB, "P>CTRY", "{P} left {CTRY}, the country of {his} birth, as a child.")
_t(SOB, "P>STATE", "{P} was born and raised in {STATE}.")
_t(SOB, "P>STATE", "{STATE}, where {P} was born, celebrated {his} victory.")
_t(SOB, "P>STATE", "{P}, born in {STATE} in {YEAR}, studied law.", f"P>YEAR={DOB}")
_t(SOB, "P>STATE", "A native of {STATE}, {P} joined the navy at eighteen.")
_t(COD, "P>CITY", "{P} died Sunday in {CITY}.")
_t(COD, "P>CITY", "{P} was found dead in {CITY} on {DAY}.", f"P>DAY={DOD}")
_t(COD, "P>CITY", "{CITY}, where {P} died in {DYEAR}, named a street after {him}.", f"P>DYEAR={DOD}")
_t(COD, "P>CITY", "{P} passed away in {CITY} surrounded by family.")
_t(CND, "P>CTRY", "{CTRY}, where {P} died, declared a day of mourning.")
_t(CND, "P>CTRY", "{P} died on a visit to {CTRY}.")
_t(CND, "P>CTRY", "{P} died in {CTRY} at the age of {AGE}.", f"P>AGE={AGE}")
_t(SOD, "P>STATE", "{P} died Tuesday in {STATE}.")
_t(SOD, "P>STATE", "{P} was found dead at {his} home in {STATE}.")
_t(SOD, "P>STATE", "{STATE}, where {P} died in {DYEAR}, honoured {him} with a statue.", f"P>DYEAR={DOD}")
_t(SOD, "P>STATE", "{P} died in a hospital in {STATE} after a short illness.")
_t(RES_C, "P>CITY", "{P}, who lives in {CITY}, declined to comment.")
_t(RES_C, "P>CITY", "{P} has made {CITY} {his} home.")
_t(RES_C, "P>CITY", "{P} rents a small apartment in {CITY}.")
_t(RES_C, "he>CITY", "{P} returned to {CITY}, where {he} has lived since {YEAR}.", f"P>CITY={RES_C}")
_t(RES_N, "P>CTRY", "{P}, a resident of {CTRY}, was questioned by police.")
_t(RES_N, "P>CTRY", "{P} lives in {CTRY} with {his} family.")
_t(RES_N, "P>CTRY", "{P} has been living in {CTRY} for a decade.")
_t(RES_N, "P>CTRY", "{P} is a permanent resident of {CTRY}.")
_t(RES_S, "P>STATE", "{P}, who lives in {STATE}, wrote the letter.")
_t(RES_S, "P>STATE", "{P} resides in {STATE}.")
_t(RES_S, "P>STATE", "{P} settled in {STATE} after the war.")
_t(RES_S, "P>STATE", "{P} has a farm in {STATE}, where {he} lives with {his} family.", f"he>STATE={RES_S}")
_t(CAU, "P>CAUSE", "{CAUSE} killed {P} in {DYEAR}.", f"P>DYEAR={DOD}")
_t(CAU, "P>ILL", "{P} lost {his} battle with {ILL} on Sunday.")
_t(CAU, "P>ILL", "{P} died after a long fight against {ILL}.")
_t(CH, "P>CHARGE", "{P} faces charges of {CHARGE}.")
_t(CH, "P>CHARGE", "{P} was indicted on {CHARGE} charges.")
_t(CH, "P>CHARGE", "{P}, jailed for {CHARGE} in {YEAR}, was released.", "P>YEAR!")
_t(CH, "P>CHARGE", "{P} admitted to {CHARGE} in court.")
_t(SCH, "P>U", "{P}, who studied at {U}, wrote the report.")
_t(SCH, "P>U", "{P} has a degree in history from {U}.")
_t(SCH, "P>U", "{P} attended {U} on a scholarship.")
_t(SCH, "P>U", "A former student at {U}, {P} now teaches music.")
_t(SP, "P>P2", "{P} is married to {P2}.")
_t(SP, "P>P2", "{P} and {P2} wed in {CITY} in {YEAR}.", "P>CITY!")
_t(SP, "P>P2", "{P}'s late {husband2}, {P2}, was a {TITLE}.", f"P2>TITLE={T_}")
_t(SP, "P>P2", "{P} lives with {his} {husband2}, {P2}, in {CITY}.", f"P>CITY={RES_C}", f"P2>CITY={RES_C}")
_t(SIB, "P>P2", "{P}'s {brother2} {P2} also plays for the team.")
_t(SIB, "P>P2", "{P} has a {brother2}, {P2}, who is a {TITLE}.", f"P2>TITLE={T_}")
_t(SIB, "P>P2", "{P} and {his} twin, {P2}, were born in {CITY}.", f"P>CITY={COB}")
_t(SIB, "P>P2", "{P2} is {P}'s {brother2}.")
_t(CHI, "P>P2", "{P} is the {father} of {P2}.")
_t(CHI, "P>P2", "{P} has three children, including {P2}.")
_t(CHI, "P>P2", "{P2} is {P}'s {son2}.")
_t(CHI, "P>P2", "{P} adopted {P2} in {YEAR}.")
_t(PAR, "P>P2", "{P}'s parents, {P2} and {P3}, live in {CITY}.", f"P>P3={PAR}", f"P2>CITY={RES_C}")
_t(PAR, "P>P2", "{P} is the {son} of {P2}.")
_t(PAR, "P>P2", "{P2} raised {P} alone after the divorce.")
_t(PAR, "P>P2", "{P} was adopted by {P2} in {YEAR}.")
_t(OF, "P>P2", "{P}'s {kin2}, {P2}, lives nearby.")
_t(OF, "P>P2", "{P} is the {kin} of {P2}.")
_t(OF, "P>P2", "{P2}, {P}'s {kin2}, testified at the trial.")
_t(OF, "P>P2", "{P} spent summers with {his} {kin2}, {P2}.")
_t(AN, "P>ALT", "{P}, whose real name is {ALT}, lives in {CITY}.", f"P>CITY={RES_C}")
_t(AN, "P>ALT", "{P} -- known to fans as {ALT} -- retired on Friday.")
_t(AN, "P>ALT", "{ALT} is the stage name of {P}.")
_t(AN, "P>ALT", "{P}, also called {ALT}, was the leader of the gang.")
_t(OAN, "I>I.acr", "{I.acr} ({I}) said it would appeal.")
_t(OAN, "I>I.acr", "The {I}, or {I.acr}, will meet in {CITY}.", "I>CITY!")
_t(OAN, "C>C.short", "{C}, which trades as {C.short}, cut prices.")
_t(OAN, "I>I.acr", "The {I} (also known as the {I.acr}) issued a report.")
_t(FB, "C>P", "{C} was started by {P} in {YEAR}.", f"C>YEAR={FOUNDED}")
_t(FB, "C>P", "{P}, the founder of {C}, gave a speech.")
_t(FB, "C>P", "{P} co-founded {C} with {P2} in {YEAR}.", f"C>P2={FB}", f"C>YEAR={FOUNDED}", "P>P2!")
_t(FB, "I>P", "The {I} was launched by {P}.")
_t(TOP, "O>P", "{P} chairs the board of {O}.", f"P>O={E}")
_t(TOP, "O>P", "{O} said {P} would remain its {LEAD}.", f"P>LEAD={T_}", f"P>O={E}")
_t(TOP, "O>P", "{P} took over as {LEAD} of {O} in {YEAR}.", f"P>LEAD={T_}", f"P>O={E}")
_t(TOP, "O>P", "{O} boss {P} defended the decision.", f"P>O={E}")
_t(CHQ, "C>CITY", "{C} is headquartered in {CITY}.")
_t(CHQ, "C>CITY", "{C}'s head office is in {CITY}.")
_t(CHQ, "C>CITY", "{C}, which has its headquarters in {CITY}, lost the case.")
_t(NHQ, "C>CTRY", "{C} is headquartered in {CTRY}.")
_t(NHQ, "C>CTRY", "{C}'s head office is in {CTRY}.")
_t(NHQ, "C>CTRY", "{C} is a company based in {CTRY}.")
_t(NHQ, "C>CTRY", "{CTRY}-based {C} reported higher sales.")
_t(SHQ, "C>STATE", "{C} is headquartered in {STATE}.")
_t(SHQ, "C>STATE", "{C}'s head office is in {STATE}.")
_t(SHQ, "C>STATE", "{C}, based in {STATE}, recalled its products.")
_t(OP, "C>C2", "{C2} owns {C}.")
_t(OP, "C>C2", "{C}, which {C2} bought in {YEAR}, is profitable.")
_t(OP, "C>C2", "{C} is a division of {C2}.")
_t(OS, "C>C2", "{C} acquired {C2} last year.")
_t(OS, "C>C2", "{C2} is a division of {C}.")
_t(OS, "C>C2", "{C}'s subsidiary {C2} opened a plant in {CITY}.", "C>CITY!")
_t(MO, "C>I", "{C} belongs to the {I}.")
_t(MO, "C>I", "{C} is one of the members of the {I}.")
_t(MO, "C>I", "{C}, a member of the {I}, opposed the rules.")
_t(MS, "I>C", "The {I} includes {C}.")
_t(MS, "I>C", "The {I}'s members include {C}.")
_t(MS, "I>C", "{C} has joined the {I}, the group said.")
_t(FOUNDED, "C>YEAR", "{C} was established in {YEAR}.")
_t(FOUNDED, "C>YEAR", "{C} opened its doors in {YEAR}.")
_t(FOUNDED, "I>YEAR", "The {I}, founded in {YEAR}, has offices in {CITY}.", "I>CITY!")
_t(DIS, "C>YEAR", "{C} closed its doors in {YEAR}.")
_t(DIS, "I>YEAR", "The {I} ceased to exist in {YEAR}.")
_t(DIS, "C>YEAR", "{C} was wound up in {YEAR}.")
_t(WEB, "C>C.url", "{C} can be reached online at {C.url}.")
_t(WEB, "C>C.url", "The website of {C}, {C.url}, lists its prices.")
_t(NE, "C>NUM", "{C} has about {NUM} employees.")
_t(NE, "I>NUM", "The {I} counts {NUM} members.")
_t(NE, "C>NUM", "{C}, with a staff of {NUM}, is growing fast.")
_t(SH, "C>P", "{P} is a major shareholder in {C}.")
_t(SH, "C>C2", "{C2} owns 15 percent of {C}.")
_t(SH, "C>P", "{P} holds shares in {C}.")
_t(PA, "I>REL", "The {I}, a {REL} organisation, helps refugees.")
_t(PA, "I>REL", "The {I} was founded by {REL} activists.")
_t(PA, "I>REL", "The {REL} charity {I} opened a school.")
_t(CHI, "P>P2", "{P}, the {father} of {P2}, spoke to reporters.")
_t(CHI, "P>P2", "{P2}'s {father} {P} attended the ceremony.")
_t(CHI, "P>P2", "{P} became a {father} when {P2} was born in {YEAR}.", f"P2>YEAR={DOB}")
_t(PAR, "P>P2", "{P2} is the {father2} of {P}.")
_t(PAR, "P>P2", "{P}, whose {father2} {P2} was a {TITLE}, studied law.", f"P2>TITLE={T_}")
_t(PAR, "P>P2", "{P} lives with {his} {father2}, {P2}.")
_t(OF, "P>P2", "{P2} is the {kin2} of {P}.")
_t(OF, "P>P2", "{P}, whose {kin2} {P2} is a {TITLE}, grew up in {CITY}.", f"P2>TITLE={T_}", f"P>CITY={RES_C}")
_t(E, "P>U", "{P} teaches history at {U}.")
_t(E, "P>U", "{P}, a researcher at {U}, published the findings.")
_t(CHQ, "C>CITY", "{C} is a {CITY}-based company.")
_t(SHQ, "C>STATE", "{C} is a {STATE}-based company.")
_t(NHQ, "C>CTRY", "{C} is a {CTRY}-based company.")
_t(RES_C, "P>CITY", "{P}, a {TITLE} from {CITY}, won the award.", f"P>TITLE={T_}")
_t(RES_S, "P>STATE", "{P}, a {TITLE} from {STATE}, spoke at the rally.", f"P>TITLE={T_}")
_t(RES_N, "P>CTRY", "{P}, who has lived in {CTRY} since {YEAR}, speaks the language.")
_t(SH, "C>P", "{P} sold {his} stake in {C} last year.")
_t(SH, "C>C2", "{C} counts {C2} among its largest shareholders.")
_t(DIS, "C>YEAR", "{C} went out of business in {YEAR}.")
_t(FOUNDED, "C>YEAR", "{C} was launched in {YEAR}.")

# no_relation: two entities the sentence does not relate.
_n("P>CITY", "{P} visited {CITY} last week.")
_n("P>CITY", "{P} will speak at a conference in {CITY} next month.")
_n("P>CITY", "{P} flew from {CITY} to {CITY2} on Monday.", "P>CITY2!")
_n("P>CITY", "{P} criticised the mayor of {CITY}.")
_n("P>CITY", "{P} has never been to {CITY}.")
_n("P>CITY", "The concert by {P} in {CITY} was cancelled.")
_n("P>CITY", "{P} watched the match between {CITY} and {CITY2}.", "P>CITY2!")
_n("P>CTRY", "{P} criticised {CTRY}'s trade policy.")
_n("P>CTRY", "{P} called for sanctions against {CTRY}.")
_n("P>CTRY", "{P} met officials from {CTRY} on Tuesday.")
_n("P>CTRY", "{P} praised the economic reforms in {CTRY}.")
_n("P>STATE", "{P} campaigned in {STATE} on Tuesday.")
_n("P>STATE", "{P} sold {his} stake in a {STATE} mine.")
_n("P>O", "{P} criticised {O} for its handling of the crisis.")
_n("P>O", "{P} sued {O} over a defective product.")
_n("P>C", "{P} bought a car from {C}.")
_n("P>O", "{P} praised {O} in a speech.")
_n("O>P", "{O} sued {P} for breach of contract.")
_n("O>P", "{O} thanked {P} for the donation.")
_n("P>P2", "{P} met {P2} at the summit in {CITY}.", "P>CITY!")
_n("P>P2", "{P} defeated {P2} in the final.")
_n("P>P2", "{P} criticised {P2} in a television interview.")
_n("P>P2", "{P} interviewed {P2} for the documentary.")
_n("P>P2", "{P} replaced {P2} as {TITLE} in {YEAR}.", f"P>TITLE={T_}", f"P2>TITLE={T_}")
_n("P>P2", "{P} and {P2} disagreed about the plan.")
_n("P>P2", "{P} voted for {P2} in the election.")
_n("C>CITY", "{C} opened a new store in {CITY}.")
_n("C>CITY", "{C} plans to build a factory near {CITY}.")
_n("C>CTRY", "{C} exports most of its products to {CTRY}.")
_n("C>CTRY", "{C} was fined by regulators in {CTRY}.")
_n("C>STATE", "{C} sells its cars in {STATE}.")
_n("P>TITLE", "{P} criticised the {TITLE} in a speech.")
_n("P>TITLE", "{P} met the {TITLE} of {O} on Monday.", "P>O!")
_n("P>NAT", "{P} met with {NAT} officials.")
_n("P>NAT", "{P} praised the {NAT} team.")
_n("P>REL", "{P} spoke to {REL} leaders about the plan.")
_n("P>REL", "{P} visited a {REL} school.")
_n("P>YEAR", "{P} visited {CITY} in {YEAR}.", "P>CITY!")
_n("P>DAY", "{P} gave a speech on {DAY}.")
_n("P>ILL", "{P} raised money for {ILL} research.")
_n("P>ILL", "{P}, a doctor, has treated {ILL} patients for years.")
_n("P>CHARGE", "{P}, a lawyer, specialises in {CHARGE} cases.")
_n("P>CHARGE", "{P} led the investigation into {CHARGE} at {O}.", "P>O!")
_n("P>U", "{P} gave a lecture at {U}.")
_n("P>U", "{P} donated money to {U}.")
_n("P>AGE", "{P} scored {AGE} points in the game.")
_n("P>NUM", "{P} sold {NUM} copies of {his} first book.")
_n("C>NUM", "{C} will cut {NUM} jobs by next year.")
_n("C>NUM", "{C} sold {NUM} cars last year.")
_n("C>C2", "{C} signed a contract with {C2}.")
_n("C>C2", "{C} competes with {C2} in {CTRY}.")
_n("C>C2", "{C} sued {C2} over a patent.")
_n("C>YEAR", "{C} reported record profits in {YEAR}.")
_n("C>P", "{P} criticised {C}'s new policy.")
_n("I>C", "The {I} criticised {C}.")
_n("he>CITY", "{P} said {he} had never visited {CITY}.", "P>CITY!")
_n("he>O", "{P} said {he} would never work for {O}.", "P>O!")
_n("his>P2", "{P} said {his} meeting with {P2} went well.", "P>P2!")
_n("he>CTRY", "{P} says {he} would like to visit {CTRY} someday.", "P>CTRY!")
_n("he>CHARGE", "{P} said {he} would fight {CHARGE} in the city.", "P>CHARGE!")
_n("He>P2", "{P} spoke first. {He} thanked {P2} for coming.", "P>P2!")
_n("P>CITY", "{P} spent a week in {CITY} on vacation.")
_n("P>CTRY", "{P} will travel to {CTRY} next week.")
_n("P>CITY", "{P} wrote a book about {CITY}.")
_n("P>STATE", "{P} performed in {STATE} last year.")
_n("P>P2", "{P} praised {P2}'s performance.")
_n("P>P2", "{P} thanked {P2} and {P3}.", "P>P3!", "P2>P3!")
_n("P>P2", "{P} shook hands with {P2} in {CITY}.", "P>CITY!")
_n("P>U", "{P} attended a conference at {U}.")
_n("P>ILL", "{P} spoke about {ILL} at the event.")
_n("P>CHARGE", "{P} wrote about {CHARGE} in {his} column.")
_n("P>NAT", "{P} reported on {NAT} politics.")
_n("C>I", "{C} donated money to the {I}.")
_n("P2>TITLE", "{P}, the {TITLE} who investigated {P2}, resigned.", f"P>TITLE={T_}")
_n("C>CITY", "{C} sponsored a marathon in {CITY}.")
_n("O>P", "{O} published an interview with {P}.")
_n("P>DAY", "{P} is expected to arrive on {DAY}.")
_n("P>AGEYO", "{P} rescued a {AGEYO} hiker.")
_n("P>NAT", "{P} coached the {NAT} team for two years.")
_n("P>NAT", "{P} signed a deal with a {NAT} company.")
_n("P>REL", "{P} criticised {REL} leaders.")
_n("P>TITLE", "{P} complained to the {TITLE}.")
_n("C>NUM", "{C} raised prices by {NUM} dollars.")
_n("P>P2", "{P} and {P2} starred in the film.")
_n("P>P2", "{P} is a close friend of {P2}.")

_SLOT = re.compile(r"\{([A-Za-z]+?)(\d?)(?:\.([a-z]+))?\}")

ENTITY_KINDS: dict[str, str] = {
    "P": "PERSON", "ALT": "PERSON", "O": "ORGANIZATION", "C": "ORGANIZATION", "I": "ORGANIZATION",
    "U": "ORGANIZATION", "CITY": "CITY", "USCITY": "CITY", "STATE": "STATE_OR_PROVINCE",
    "CTRY": "COUNTRY", "NAT": "NATIONALITY", "REL": "RELIGION", "TITLE": "TITLE", "LEAD": "TITLE",
    "AGE": "NUMBER", "AGEYO": "DURATION", "YEAR": "DATE", "BYEAR": "DATE", "DYEAR": "DATE",
    "DAY": "DATE", "CAUSE": "CAUSE_OF_DEATH", "ILL": "CAUSE_OF_DEATH", "CHARGE": "CRIMINAL_CHARGE",
    "NUM": "NUMBER",
}
ATTR_TYPES: dict[tuple[str, str], str] = {
    ("CITY", "country"): "COUNTRY", ("USCITY", "state"): "STATE_OR_PROVINCE",
    ("I", "acr"): "ORGANIZATION", ("C", "short"): "ORGANIZATION", ("C", "url"): "URL",
}
# Gendered words: (masculine forms, feminine forms); the first form is used half the time.
# The pronouns among them are PERSON mentions. Several kin words per direction make the
# head learn what the word means (child or parent), not which template it came from.
GENDERED: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "he": (("he",), ("she",)), "He": (("He",), ("She",)), "his": (("his",), ("her",)),
    "His": (("His",), ("Her",)), "him": (("him",), ("her",)), "man": (("man",), ("woman",)),
    "husband": (("husband", "ex-husband"), ("wife", "ex-wife")),
    "son": (("son", "eldest son", "youngest son", "only son"),
            ("daughter", "eldest daughter", "youngest daughter", "only daughter")),
    "brother": (("brother", "older brother", "younger brother", "twin brother", "half-brother"),
                ("sister", "older sister", "younger sister", "twin sister", "half-sister")),
    "father": (("father", "dad"), ("mother", "mum")),
}
PRONOUNS = frozenset({"he", "He", "his", "His", "him"})
KIN: tuple[tuple[str, str], ...] = (
    ("uncle", "aunt"), ("cousin", "cousin"), ("grandfather", "grandmother"), ("grandson", "granddaughter"),
    ("nephew", "niece"), ("brother-in-law", "sister-in-law"), ("son-in-law", "daughter-in-law"),
    ("father-in-law", "mother-in-law"), ("grandnephew", "grandniece"),
)

# Swapping the arguments of a stated pair: symmetric labels stay, inverse ones invert,
# one-directional ones become no_relation; None: the reverse reading is not determined.
SWAP: dict[str, str | None] = {
    "per:spouse": "per:spouse", "per:siblings": "per:siblings", "per:other_family": "per:other_family",
    "per:alternate_names": "per:alternate_names", "org:alternate_names": "org:alternate_names",
    "per:children": "per:parents", "per:parents": "per:children", "org:parents": "org:subsidiaries",
    "org:subsidiaries": "org:parents", "org:member_of": "org:members", "org:members": "org:member_of",
    "org:top_members/employees": "per:employee_of",
    "per:employee_of": None, "org:founded_by": None, "org:shareholders": None, NO_RELATION: None,
}


def _parse_pair(spec: str, default: str) -> tuple[str, str, str]:
    if spec.endswith("!"):
        spec, label = spec[:-1], NO_RELATION
    elif "=" in spec:
        spec, label = spec.split("=", 1)
    else:
        label = default
    head, tail = spec.split(">")
    return head, tail, label


def _slot_key(match: re.Match[str]) -> str:
    return match.group(0)[1:-1]


@lru_cache(maxsize=1)
def templates() -> tuple[Template, ...]:
    """Every template, checked: known slots, pair slots present, labels in TACRED."""
    out: list[Template] = []
    counts: Counter[str] = Counter()
    for label, pair, text, extras in _RAW:
        pairs = (_parse_pair(pair, label), *(_parse_pair(x, label) for x in extras))
        keys = {_slot_key(m) for m in _SLOT.finditer(text)}
        for m in _SLOT.finditer(text):
            base, attr = m.group(1), m.group(3)
            known = base in ENTITY_KINDS or base in GENDERED or base == "kin"
            if not known or (attr and (base, attr) not in ATTR_TYPES):
                raise ValueError(f"unknown slot {m.group(0)} in template {text!r}")
        for head, tail, lab in pairs:
            if head not in keys or tail not in keys or lab not in TACRED_LABELS:
                raise ValueError(f"bad pair {head}>{tail}={lab} in template {text!r}")
        out.append(Template(f"{label}#{counts[label]}", label, text, pairs))
        counts[label] += 1
    return tuple(out)


def labels() -> tuple[str, ...]:
    """The labels the templates produce, in TACRED's order (no_relation first)."""
    found = {lab for t in templates() for _, _, lab in t.pairs}
    found |= {s for s in SWAP.values() if s}
    return tuple(lab for lab in TACRED_LABELS if lab in found)


def split_templates(seed: int = 0, held_out: float = 0.25) -> tuple[tuple[Template, ...], tuple[Template, ...]]:
    """(train, held-out) templates: about ``held_out`` of each label's wordings held out.

    Splitting by template (not by example) makes the held-out score measure new wordings,
    not new fillers of known sentences.
    """
    rng = random.Random(seed)
    train: list[Template] = []
    held: list[Template] = []
    groups: dict[str, list[Template]] = {}
    for t in templates():
        groups.setdefault(t.label, []).append(t)
    for label in sorted(groups):
        group = list(groups[label])
        k = max(1, round(held_out * len(group)))
        chosen = {t.id for t in rng.sample(group, k)}
        for t in group:
            (held if t.id in chosen else train).append(t)
    return tuple(train), tuple(held)


# --------------------------------------------------------------------------------------
# Lexicons
# --------------------------------------------------------------------------------------

_EXTRA_TITLES = (
    "engineer", "analyst", "correspondent", "vice president", "architect", "chief operating officer",
    "deputy director", "historian", "poet", "commissioner", "prosecutor", "surgeon", "pilot",
    "photographer", "composer", "chief economist", "police chief", "bishop", "curator", "attorney general",
)
_LEAD = (
    "president", "chairman", "chief executive", "director", "chief financial officer", "managing director",
    "chief operating officer", "vice president", "chairwoman", "chief executive officer", "general manager",
    "head", "executive director", "CEO", "secretary general",
)
_EXTRA_ILL = (
    "pneumonia", "leukemia", "heart failure", "lung cancer", "kidney failure", "cancer", "tuberculosis",
    "malaria", "liver cancer", "breast cancer", "pancreatic cancer", "Alzheimer's disease", "AIDS",
    "prostate cancer", "cholera", "multiple sclerosis", "heart disease", "complications of diabetes",
    "a brain tumour", "emphysema", "lymphoma", "ovarian cancer",
)
_EXTRA_CAUSES = (
    "a heart attack", "a stroke", "a car accident", "a plane crash", "a drug overdose", "gunshot wounds",
    "a fall", "injuries sustained in a crash", "drowning", "a motorcycle accident", "suicide",
)
_EXTRA_CHARGES = (
    "conspiracy", "arson", "kidnapping", "manslaughter", "espionage", "insider trading", "racketeering",
    "forgery", "burglary", "robbery", "treason", "securities fraud", "wire fraud", "obstruction of justice",
    "drunk driving", "attempted murder", "smuggling", "sexual assault", "human trafficking", "blackmail",
)
_RELIGIONS_EXTRA = ("Shiite", "Sunni", "Quaker", "Pentecostal", "Episcopalian", "Adventist")
_UNIVERSITIES = (
    "Harvard University", "Stanford University", "Yale University", "Oxford University", "Princeton University",
    "Columbia University", "Cornell University", "Duke University", "Georgetown University", "Tufts University",
    "Brown University", "Purdue University", "Cambridge University", "McGill University",
    "Boston University", "New York University", "Northwestern University", "Rice University",
    "Vanderbilt University", "Dartmouth College", "Trinity College", "Emory University",
    "Kyoto University", "Peking University", "Carnegie Mellon University",
)
_INST_PREFIX = (
    "National", "International", "European", "American", "Global", "United", "Federal", "Royal",
    "Pacific", "Atlantic", "African", "Asian", "World", "Central", "Northern",
)
_INST_DOMAIN = (
    "Energy", "Health", "Trade", "Science", "Education", "Farmers", "Steel", "Transport", "Media",
    "Water", "Wildlife", "Aviation", "Banking", "Nursing", "Teachers", "Mining", "Tourism", "Fisheries",
)
_INST_KIND = (
    "Council", "Association", "Alliance", "Institute", "Federation", "Foundation", "Agency", "Union",
    "Society", "Commission", "League", "Forum",
)
_REAL_INST = (
    ("International Monetary Fund", "IMF"), ("World Health Organization", "WHO"),
    ("North Atlantic Treaty Organization", "NATO"), ("World Trade Organization", "WTO"),
    ("European Central Bank", "ECB"), ("Food and Agriculture Organization", "FAO"),
    ("International Atomic Energy Agency", "IAEA"), ("National Rifle Association", "NRA"),
    ("American Civil Liberties Union", "ACLU"), ("Federal Bureau of Investigation", "FBI"),
    ("Organization of Petroleum Exporting Countries", "OPEC"), ("Association of Southeast Asian Nations", "ASEAN"),
)
_CO_FIRST = (
    "Summit", "Redwood", "Atlas", "Pioneer", "Silver", "Northern", "Evergreen", "Harbor", "Granite",
    "Horizon", "Crescent", "Liberty", "Falcon", "Orion", "Sterling", "Cobalt", "Meridian", "Keystone",
    "Beacon", "Vanguard", "Apex", "Bluewater", "Cedar", "Delta", "Ironbridge", "Juniper", "Lakeside",
    "Northstar", "Oakmont", "Pinnacle", "Quantum", "Riverside", "Sunrise", "Titan", "Westfield", "Zenith",
)
_CO_INDUSTRY = (
    "Energy", "Pharmaceuticals", "Software", "Motors", "Airlines", "Foods", "Steel", "Media", "Capital",
    "Telecom", "Logistics", "Mining", "Textiles", "Chemicals", "Insurance", "Bank", "Robotics", "Brewing",
)
_CO_SUFFIX = ("", " Inc", " Corp", " Group", " Holdings", " Ltd")
_STRIP_SUFFIX = (" Inc", " LLC", " Ltd", " Group", " PLC", " and Sons", " Corp", " Holdings")
_MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December",
)
_PREFIXES = (
    "On Monday, ", "In a statement, ", "Last year, ", "According to local media, ", "Officials said that ",
    "Earlier this month, ", "In an interview, ", "Sources say that ", "As reported on Friday, ",
    "Records show that ", "The newspaper said that ", "By all accounts, ",
)
_SUFFIXES = (
    ", officials said.", ", according to the report.", ", the newspaper reported.", ", sources said.",
    ", records show.", ", a statement said.",
)


def _short(name: str) -> str | None:
    for suffix in _STRIP_SUFFIX:
        if name.endswith(suffix) and len(name) > len(suffix) + 1:
            return name[: -len(suffix)]
    return None


@dataclass
class Lexicon:
    """Entity pools of one split (each name appears in one split only)."""

    pools: dict[str, tuple[str, ...]]
    companies: dict[str, tuple[str, str]] = field(default_factory=dict)  # name -> (short, url)
    institutions: dict[str, str] = field(default_factory=dict)  # name -> acronym
    prefixes: tuple[str, ...] = ()
    suffixes: tuple[str, ...] = ()


def _person_names(seed: int, n: int = 700) -> tuple[tuple[str, ...], tuple[str, ...]]:
    from faker import Faker

    fake = Faker(["en_US", "en_GB", "en_IE", "en_AU"])
    fake.seed_instance(seed)
    out: list[list[str]] = [[], []]
    seen: set[str] = set()
    for gender, first in ((0, fake.first_name_male), (1, fake.first_name_female)):
        while len(out[gender]) < n:
            name = f"{first()} {fake.last_name()}"
            if name.isascii() and name not in seen and lexicon_type(name) is None:
                seen.add(name)
                out[gender].append(name)
    return tuple(out[0]), tuple(out[1])


@lru_cache(maxsize=4)
def build_lexicons(seed: int = 0, held_out: float = 0.2) -> tuple[Lexicon, Lexicon]:
    """(train, held-out) lexicons: every pool split at random, ``held_out`` of it held out."""
    rng = random.Random(seed)
    male, female = _person_names(seed)
    cities = [c for c in lexicons.big_cities() if lexicon_type(c) == "CITY"
              and lexicon_type(lexicons.city(c).country) == "COUNTRY"]  # type: ignore[union-attr]
    places = lexicons._geo()[0]
    us_cities = sorted(p.city for p in places.values() if p.state and lexicon_type(p.city) == "CITY"
                       and lexicon_type(p.state) == "STATE_OR_PROVINCE")
    states = [s for s in lexicons.us_states() if lexicon_type(s) == "STATE_OR_PROVINCE"]
    countries = sorted({c for c in lexicons.country_names() if lexicon_type(c) == "COUNTRY" and len(c.split()) <= 3
                        and not any(ch in c for ch in ",()") and "Island" not in c} | set(lexicons.DEMONYMS.values()))
    companies: dict[str, tuple[str, str]] = {}
    for first in _CO_FIRST:
        for industry in _CO_INDUSTRY:
            suffix = rng.choice(_CO_SUFFIX)
            short = f"{first} {industry}" if suffix else first
            companies[f"{first} {industry}{suffix}"] = (short, f"www.{first.lower()}{industry.lower()}.com")
    for name in lexicons.company_names(300):
        stripped = _short(name)
        if stripped:
            companies[name] = (stripped, f"www.{stripped.lower().replace(' ', '').replace('-', '')}.com")
    # Mentions must get the type the project's typer gives them: drop names it reads as places.
    companies = {k: v for k, v in companies.items() if lexicon_type(k) is None and lexicon_type(v[0]) is None}
    institutions = {f"{p} {d} {k}": f"{p[0]}{d[0]}{k[0]}" for p in _INST_PREFIX for d in _INST_DOMAIN
                    for k in _INST_KIND}
    institutions.update(dict(_REAL_INST))
    institutions = {k: v for k, v in institutions.items() if lexicon_type(v) is None}
    universities = list(_UNIVERSITIES) + [f"University of {c}" for c in cities[:80]] + [
        f"{s} State University" for s in states]
    pools: dict[str, tuple[str, ...]] = {
        "P0": male, "P1": female, "CITY": tuple(cities), "USCITY": tuple(us_cities), "STATE": tuple(states),
        "CTRY": tuple(countries), "NAT": tuple(lexicons.DEMONYMS),
        "REL": tuple(dict.fromkeys(lexicons.RELIGIONS + _RELIGIONS_EXTRA)),
        "TITLE": tuple(dict.fromkeys(lexicons.TITLES + _EXTRA_TITLES)), "LEAD": _LEAD,
        "ILL": tuple(dict.fromkeys(_EXTRA_ILL)),
        "CAUSE": tuple(dict.fromkeys(lexicons.CAUSES_OF_DEATH + _EXTRA_ILL + _EXTRA_CAUSES)),
        "CHARGE": tuple(dict.fromkeys(lexicons.CRIMINAL_CHARGES + _EXTRA_CHARGES)),
        "C": tuple(sorted(companies)), "I": tuple(sorted(institutions)), "U": tuple(universities),
        "OX": tuple(o for o in lexicons.ORGANIZATIONS if o not in _UNIVERSITIES and lexicon_type(o) is None),
        "PRE": _PREFIXES, "SUF": _SUFFIXES,
    }
    train: dict[str, tuple[str, ...]] = {}
    held: dict[str, tuple[str, ...]] = {}
    for key, pool in pools.items():
        items = list(pool)
        rng.shuffle(items)
        k = max(1, round(held_out * len(items)))
        held[key], train[key] = tuple(items[:k]), tuple(items[k:])
    out = []
    for part in (train, held):
        prefixes, suffixes = part.pop("PRE"), part.pop("SUF")
        lex = Lexicon(part, {c: companies[c] for c in part["C"]},
                      {i: institutions[i] for i in part["I"]}, prefixes, suffixes)
        lex.pools["O"] = part["C"] + part["I"] + part["OX"] + part["U"][:5]
        out.append(lex)
    return out[0], out[1]


# --------------------------------------------------------------------------------------
# Generation
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Example:
    """One labelled relation input and the template it came from."""

    input: RelationInput
    label: str
    template: str


def _number(rng: random.Random) -> str:
    form = rng.randrange(4)
    if form == 0:
        return f"{rng.randint(2, 95)},{rng.randint(0, 9)}00"
    if form == 1:
        return str(rng.randint(40, 990))
    if form == 2:
        return f"{rng.randint(11, 450)},000"
    return f"{rng.randint(1, 9)}.{rng.randint(1, 9)} million"


def _date(rng: random.Random) -> str:
    month, day, year = rng.choice(_MONTHS), rng.randint(1, 28), rng.randint(1900, 2023)
    form = rng.randrange(3)
    if form == 0:
        return f"{month} {day}, {year}"
    if form == 1:
        return f"{day} {month} {year}"
    return f"{month} {day}"


class _Filler:
    """Draws the values of one template instance (distinct per kind, consistent attributes)."""

    def __init__(self, lex: Lexicon, rng: random.Random) -> None:
        self.lex, self.rng = lex, rng
        self.genders: dict[str, int] = {}
        self.values: dict[str, str] = {}
        self.used: set[str] = set()

    def gender(self, idx: str) -> int:
        if idx not in self.genders:
            self.genders[idx] = self.rng.randrange(2)
        return self.genders[idx]

    def _pick(self, pool: Sequence[str]) -> str:
        for _ in range(50):
            value = self.rng.choice(pool)
            if value not in self.used:
                break
        self.used.add(value)
        return value

    def entity(self, base: str, idx: str) -> str:
        key = base + idx
        if key in self.values:
            return self.values[key]
        rng, pools = self.rng, self.lex.pools
        if base == "P":
            value = self._pick(pools[f"P{self.gender(idx)}"])
            surnames = {v.split()[-1] for k, v in self.values.items() if k.startswith("P")}
            while value.split()[-1] in surnames:  # relatives named apart, so mentions stay distinct
                value = self._pick(pools[f"P{self.gender(idx)}"])
            # News text often names a person by one name only; keep it if nothing else reads so.
            part = rng.random()
            if part < 0.2:
                short = value.split()[-1 if part < 0.12 else 0]
                words = {w for k, v in self.values.items() if k.startswith("P") for w in v.split()}
                if short not in words and lexicon_type(short) is None:
                    value = short
        elif base == "ALT":
            person = self.entity("P", idx)
            if rng.random() < 0.3:
                first, last = person.split()[0], person.split()[-1]
                value = f"{first[0]}. {rng.choice('ABCDEFGHJKLMNPRSTW')}. {last}"
            else:
                value = self._pick(pools[f"P{self.gender(idx)}"])
        elif base in ("AGE", "AGEYO"):
            n = rng.randint(18, 95)
            value = str(n) if base == "AGE" else f"{n}-year-old"
        elif base == "YEAR":
            value = str(rng.randint(1900, 2023))
        elif base == "BYEAR":
            value = str(rng.randint(1880, 1950))
        elif base == "DYEAR":
            value = str(rng.randint(1960, 2023))
        elif base == "DAY":
            value = _date(rng)
        elif base == "NUM":
            value = _number(rng)
        else:
            value = self._pick(pools[base])
        self.values[key] = value
        return value

    def attribute(self, base: str, idx: str, attr: str) -> str:
        value = self.entity(base, idx)
        if (base, attr) == ("CITY", "country"):
            return lexicons.city(value).country  # type: ignore[union-attr]
        if (base, attr) == ("USCITY", "state"):
            return lexicons.city(value).state or ""  # type: ignore[union-attr]
        if (base, attr) == ("I", "acr"):
            return self.lex.institutions[value]
        short, url = self.lex.companies[value]
        return short if attr == "short" else url

    def word(self, base: str, idx: str) -> str:
        g = self.gender(idx or "")
        if base == "kin":
            key = f"kin{idx}"
            if key not in self.values:
                self.values[key] = str(self.rng.randrange(len(KIN)))
            return KIN[int(self.values[key])][g]
        key = f"word:{base}{idx}"
        if key not in self.values:
            forms = GENDERED[base][g]
            self.values[key] = forms[0] if len(forms) == 1 or self.rng.random() < 0.5 else self.rng.choice(forms[1:])
        return self.values[key]


def realise(
    template: Template, lex: Lexicon, rng: random.Random, *, affix: bool = True, taken: set[str] | None = None
) -> tuple[str, dict[str, Span]]:
    """Fill a template: the text and the typed span of every entity slot (first occurrence).

    ``taken`` holds values already used nearby (another sentence of the same text); they
    are avoided and the new ones are added to it.
    """
    filler = _Filler(lex, rng)
    if taken is not None:
        filler.used = taken
    prefix = rng.choice(lex.prefixes) if affix and lex.prefixes and rng.random() < 0.15 else ""
    suffix = rng.choice(lex.suffixes) if affix and lex.suffixes and rng.random() < 0.1 else ""
    out = prefix
    spans: dict[str, Span] = {}
    pos = 0
    pieces: list[tuple[str, re.Match[str] | None]] = []
    for found in _SLOT.finditer(template.text):
        pieces.append((template.text[pos : found.start()], None))
        pieces.append(("", found))
        pos = found.end()
    pieces.append((template.text[pos:], None))
    first = True
    base = ""
    for literal, m in pieces:
        etype: str | None = None
        if m is None:
            value = literal
        else:
            base, idx, attr = m.group(1), m.group(2), m.group(3)
            if base in ENTITY_KINDS:
                value = filler.attribute(base, idx, attr) if attr else filler.entity(base, idx)
                etype = ATTR_TYPES[(base, attr)] if attr else ENTITY_KINDS[base]
            else:
                value = filler.word(base, idx)
                etype = "PERSON" if base in PRONOUNS else None
        if not value:
            continue
        if not out or out.endswith(". "):
            value = value[0].upper() + value[1:]
        elif first and prefix and (m is None or base in GENDERED):
            value = value[0].lower() + value[1:]
        first = False
        if m is not None and value[0] in "AEIOaeio" and (out.endswith(" a ") or out in ("a ", "A ")):
            out = out[:-2] + "an "
        if m is not None and etype is not None:
            key = _slot_key(m)
            if key not in spans:
                spans[key] = Span(len(out), len(out) + len(value), etype)
        out += value
    if suffix and out.endswith("."):
        out = out[:-1] + suffix
    return out, spans


def _shift(spans: dict[str, Span], delta: int) -> dict[str, Span]:
    return {k: v.shifted(delta) for k, v in spans.items()}


def instantiate(
    template: Template,
    lex: Lexicon,
    rng: random.Random,
    *,
    swap_rate: float = 0.35,
    contexts: Sequence[Template] = (),
) -> list[Example]:
    """One filled sentence and an example for each of its pairs (plus some swapped pairs).

    ``contexts`` templates are filled too and put around the sentence, and one pair across
    sentences (never a pronoun) is added as no_relation: the model must then read the
    marked pair, not whatever else the text states, and stay right in longer texts.
    """
    taken: set[str] = set()
    parts = [realise(template, lex, rng, taken=taken)]
    parts += [realise(c, lex, rng, affix=False, taken=taken) for c in contexts]
    order = [0, *rng.sample(range(1, len(parts)), len(parts) - 1)]
    order.insert(rng.randrange(len(parts)), order.pop(0))  # the stated sentence anywhere
    text, spans, other_spans, offset = "", {}, [], 0
    for i in order:
        part_text, part_spans = parts[i]
        moved = _shift(part_spans, offset)
        if i == 0:
            spans.update(moved)
        else:
            other_spans.append({f"ctx{i}:{k}": v for k, v in moved.items()})
        text += ("" if not text else " ") + part_text
        offset = len(text) + 1
    items: list[tuple[str, str, str]] = []
    stated = {(h, t) for h, t, _ in template.pairs}
    for head, tail, label in template.pairs:
        items.append((head, tail, label))
        swapped = SWAP.get(label, NO_RELATION)
        if (tail, head) not in stated and swapped is not None and (
            swapped != NO_RELATION or rng.random() < swap_rate
        ):
            items.append((tail, head, swapped))
    mine = [k for k in spans if k.rstrip("0123456789") not in PRONOUNS]
    theirs = [k for o in other_spans for k in o if k.partition(":")[2].rstrip("0123456789") not in PRONOUNS]
    if mine and theirs:
        first, second = rng.choice(mine), rng.choice(theirs)
        items.append((first, second, NO_RELATION) if rng.random() < 0.5 else (second, first, NO_RELATION))
    for o in other_spans:
        spans.update(o)
    out: list[Example] = []
    for h, t, lab in items:
        hs, ts = spans[h], spans[t]
        x = RelationInput(text, hs, ts)
        assert x.head_text == text[hs.start : hs.end] and x.tail_text == text[ts.start : ts.end]
        out.append(Example(x, lab, template.id))
    return out


def generate(
    n: int,
    *,
    split: str = "train",
    seed: int = 0,
    split_seed: int = 0,
    no_relation_weight: float = 6.0,
    context_rate: float = 0.3,
    context_sizes: Sequence[int] = (1, 1, 1, 2, 2, 3, 4, 6),
) -> list[Example]:
    """``n`` labelled examples from the ``"train"`` or ``"held_out"`` templates and lexicons.

    Template groups (one per primary label) are visited in shuffled rounds so every label
    gets a similar share; the no_relation group gets ``no_relation_weight`` shares. A
    ``context_rate`` share of the sentences get context: a number of other sentences of the
    same split drawn from ``context_sizes``.
    Deterministic for ``(seed, split_seed)``; uses its own ``random.Random`` only.
    """
    if split not in ("train", "held_out"):
        raise ValueError(f"split must be 'train' or 'held_out', got {split!r}")
    rng = random.Random(2 * seed + (split == "held_out"))
    train_t, held_t = split_templates(split_seed)
    lex = build_lexicons(split_seed)[0 if split == "train" else 1]
    groups: dict[str, list[Template]] = {}
    pool = train_t if split == "train" else held_t
    for t in pool:
        groups.setdefault(t.label, []).append(t)
    names = sorted(groups)
    out: list[Example] = []
    credit = dict.fromkeys(names, 0.0)
    while len(out) < n:
        rng.shuffle(names)
        for name in names:
            credit[name] += no_relation_weight if name == NO_RELATION else 1.0
            while credit[name] >= 1.0 and len(out) < n:
                credit[name] -= 1.0
                template = rng.choice(groups[name])
                size = rng.choice(context_sizes) if rng.random() < context_rate else 0
                out.extend(instantiate(template, lex, rng, contexts=[rng.choice(pool) for _ in range(size)]))
    out = out[:n]
    rng.shuffle(out)
    return out
