// LanesCron: Jenkins-exact cron schedules ("Build periodically" / "Poll SCM" syntax, `H` included).
//
// Entry points:
// - `CronSchedule(parsing:seed:timeZones:)` parses a schedule text exactly as Jenkins'
//   `CronTabList.create(text, Hash.from(jobFullName))`: same accepted language, same error texts
//   (`CronSyntaxError.message`), same warning (`warning`), same resolved values (`entries[i].table`).
// - `nextFire(onOrAfter:defaultZone:)`, `nextFire(after:defaultZone:)`, `fireTimes(…)` give fire
//   times per time zone with lanes' daylight-saving policy (see FireTimes.swift); `canEverFire`
//   tells a schedule that can never run (`0 0 31 2 *`).
// - Zones are values behind `CronTimeZone` (`FixedOffsetTimeZone`, `SystemTimeZone`), resolved by
//   a `CronTimeZoneResolver`; "now" comes from a `CronClock`. Nothing here is global or mutable.
// - `CronEvaluator` is the JSON-lines batch mode of `lanes cron eval`; `CronDescription` the
//   plain-English text of `lanes cron explain`.
//
// Lexing and parsing mirror Jenkins' ANTLR4 grammar and ANTLR's error strategy (CronLineParser);
// `H` uses Jenkins' hash (JenkinsHash: MD5 folded into a java.util.Random seed).
