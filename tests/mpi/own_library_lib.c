/* own_library_lib.c - the shared library own_library.c links with: one
 * global variable, set and read.
 *
 * run-by: test_mpi_cases.sh
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
int ownlib_value;

void ownlib_set(int v);
int ownlib_get(void);

void ownlib_set(int v)
{
	ownlib_value = v;
}

int ownlib_get(void)
{
	return ownlib_value;
}
