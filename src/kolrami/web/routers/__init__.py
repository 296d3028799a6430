"""The app's routers, one per resource: public pages, players' reports, logins, organizer pages
for events, players and rounds."""
