# Admin registrations for games models (match review) will live here.
