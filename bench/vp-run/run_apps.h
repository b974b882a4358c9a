/*
 * run_apps.h - vp-run's applications: --app NAME runs one, --apps is the
 * tour of all of them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VP_RUN_APPS_H
#define VP_RUN_APPS_H

#include "options.h"

/* --app NAME: the one application, its formulas and its line; 0 when its
 * check and its formula's claim hold, 1 if not. */
int app_one(const struct options *o, const struct app_options *ao);

/* --apps: every application on its two tour topologies; 0 when every run
 * holds, 1 if not. */
int app_tour(const struct options *o, const struct app_options *ao);

#endif
