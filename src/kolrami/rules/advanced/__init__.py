"""The advanced game (seed 004, the ADV clauses): rule modules, state and rules by topic.

checks (ADV-CHK, officer ratings), state (officers, ships), geometry (ADV-ARC), power (ADV-POW,
ADV-SHLD), officers (ADV-OFF, ADV-CAS, ADV-SEQ-04, ADV-SENS), combat (ADV-FIRE, ADV-DIS,
ADV-LOCK, ADV-TGT, ADV-EVA, ADV-TORP), modules (the rule modules and their hooks), cloak (the
`adv-cloak` module: ADV-CLOAK, ADV-SENS-02, ADV-OFF-09). The turn driver is
kolrami.rules.advanced.driver.
"""
