"""Alerts for a person away from their table (Web Push, e-mail, a nudge): docs/alerts.md."""
