/* trapezoid.c - the trapezoid rule for the integral of x^2 on [0, 3] with
 * 1200 trapezoids, each rank a contiguous share, summed with MPI_Reduce
 * (the classic first MPI program of many textbooks).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <mpi.h>
#include <stdio.h>

static double f(double x)
{
	return x * x;
}

static double trap(double a, double b, int n, double h)
{
	double s = (f(a) + f(b)) / 2;
	int i;

	for (i = 1; i < n; i++)
		s += f(a + i * h);
	return s * h;
}

int main(void)
{
	int rank, size, n = 1200, local_n;
	double a = 0, b = 3, h, local_a, local_b, local, total = 0;

	MPI_Init(NULL, NULL);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	h = (b - a) / n;
	local_n = n / size; /* the test runs sizes that divide 1200 */
	local_a = a + rank * local_n * h;
	local_b = local_a + local_n * h;
	local = trap(local_a, local_b, local_n, h);
	MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%d trapezoids on %d ranks: integral %.6f\n", n, size,
		       total);
	MPI_Finalize();
	return 0;
}
