import Lanes

let lanes = Lanefile {
    Lane("nightly", "Runs at night", schedule: ["H 0 * * 0-4"]) {}
    Lane("broken", "Has a bad schedule", schedule: ["60 * * * *"]) {}
}
