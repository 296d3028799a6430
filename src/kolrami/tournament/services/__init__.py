"""The tournament's use cases, each a function over one unit of work (a SQLAlchemy session the
caller opens and commits: Store.transaction, one per CLI command or store call; the web app's
one per request). They find and keep rows through repositories.py and leave the rules to
core.py and scoring.py.

registration: events and players; pairing: a round's pairings; results: entering, verifying
and correcting a result, players' reports; standings: the event's state and its roll-offs;
drops: a player leaving; edits: co-organizers, players and fleets changed before round 1, a
drop undone, a round cancelled or paired again, pairings swapped by hand; accounts: organizers
and their sessions; transfer: the export and the import of a whole event, the standings as CSV.
"""
