void Allgather_cube(
    float    x[]      /* in */,
    int      blocksize /* in */,
    float    y[]      /* out */,
    MPI_Comm comm     /* in */) {

    int      i, d, p, my_rank;
    unsigned eor_bit;
    unsigned and_bits;
    int      stage, partner;
    MPI_Datatype hole_type;
    int      send_offset, recv_offset;
    MPI_Status status;

    int log_base2(int p);

    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &my_rank);

    /* Copy x into correct location in y */
    for (i = 0; i < blocksize; i++)
        y[i + my_rank*blocksize] = x[i];


/* Set up */
d = log_base2(p);
eor_bit = 1 << (d-1);
and_bits = (1 << d) - 1;

for (stage = 0; stage < d; stage++) {
    partner = my_rank ^ eor_bit;
    send_offset = (my_rank & and_bits)*blocksize;
    recv_offset = (partner & and_bits)*blocksize;

    MPI_Type_vector(1 << stage, blocksize,
        (1 << (d-stage))*blocksize, MPI_FLOAT,
        &hole_type);
    MPI_Type_commit(&hole_type);

    MPI_Send(y + send_offset, 1, hole_type,
        partner, 0, comm);
    MPI_Recv(y + recv_offset, 1, hole_type,
        partner, 0, comm, &status);

    MPI_Type_free(&hole_type); /* Free type so we */
        /* can build new type during next pass */
    eor_bit = eor_bit >> 1;
    and_bits = and_bits >> 1;
}
} /* Allgather_cube */
