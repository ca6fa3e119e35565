# Admin registrations for score sheets will live here.
