// Tests run in UTC so calendar-month boundaries mean the same thing on every machine.
process.env.TZ = "UTC";
