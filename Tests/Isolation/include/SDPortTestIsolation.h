#ifndef SDPORT_TEST_ISOLATION_H
#define SDPORT_TEST_ISOLATION_H

/// The private home the test process was moved to before `main` (see isolation.c), or NULL when the move
/// failed. Every test process linking this target has one; it is removed when the process exits.
const char *sdport_test_isolated_home(void);

#endif
