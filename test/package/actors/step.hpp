// The step both actors agree on; test/package/run.sh changes it to check that the program is
// rebuilt when a header an actor includes changes.
#pragma once

constexpr int kStep = 1;
