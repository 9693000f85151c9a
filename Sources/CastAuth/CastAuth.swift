// CastAuth: device authentication — proving a Cast device is genuine (sender side) and
// answering challenges (device side).
