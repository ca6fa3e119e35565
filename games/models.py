# Models for online tables and match records will live here.
