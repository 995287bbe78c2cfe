import Lanes

let lanes = Lanefile {
    Lane("developerRelease", "Nightly staging build", environment: ["APP_FLAVOR"], secrets: ["APP_STORE_KEY"]) {
        print("building staging")
    }
    .schedule("H 0 * * 0-4").pollSCM("H/15 * * * *").hashSeed("Brewer/developerRelease").timeZone("Asia/Taipei")
    Lane("weekly", "Production for QA", schedule: ["H 3 * * 1"]) {}
    Lane("newYork", "Nightly in New York") {}
        .schedule("TZ=America/New_York\nH 1 * * 1-5")
    Lane("sunday", "Weekend check") {}.schedule("0 4 * * 5-7")
    Lane("unscheduled", "Runs by hand") {}
}
