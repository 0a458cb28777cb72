! The calls of crosscheck.sh: about sixty MPI functions through mpif.h
! (default) or `use mpi_f08` (-DF08), with the arguments the semantics read
! (statuses, indices, MPI_IN_PLACE, request arrays, new communicators and
! windows). Every rank makes the same calls at every run, except how often
! a test-family call finds nothing complete.
#ifdef F08
#define COMM_T type(MPI_Comm)
#define REQ_T type(MPI_Request)
#define MSG_T type(MPI_Message)
#define GROUP_T type(MPI_Group)
#define WIN_T type(MPI_Win)
#define TYPE_T type(MPI_Datatype)
#define STATUS_DECL type(MPI_Status) :: st, sts(4)
#define SRC(s) s%MPI_SOURCE
#else
#define COMM_T integer
#define REQ_T integer
#define MSG_T integer
#define GROUP_T integer
#define WIN_T integer
#define TYPE_T integer
#define STATUS_DECL integer :: st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 4)
#define SRC(s) s(MPI_SOURCE)
#endif
program crosscheck
#ifdef F08
  use mpi_f08
  implicit none
#else
  implicit none
  include 'mpif.h'
#endif
  integer :: ierr, rank, n, left, right, provided, i, outcount, idx, cnt
  integer :: indices(4), counts(64), displs(64), rcounts(64), rdispls(64), one
  integer, asynchronous :: sbuf(256), rbuf(256), wbuf(64)
  logical :: flag, periods(1), remain(1)
  COMM_T :: dup, idup, split, styp, created, cgroup, cart, sub, dist, inter, merged, half
  REQ_T :: reqs(4), preq(2), r1
  MSG_T :: msg
  GROUP_T :: wgroup, egroup
  WIN_T :: win
  TYPE_T :: types(64)
  integer(kind=MPI_ADDRESS_KIND) :: wsize, disp
  integer :: dims(1), srcs(2), dsts(2), ranks(64)
  STATUS_DECL

  call MPI_Init_thread(MPI_THREAD_SINGLE, provided, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  left = modulo(rank - 1, n)
  right = modulo(rank + 1, n)
  sbuf = rank
  one = 1

  ! point-to-point
  call MPI_Sendrecv(sbuf(1), 3, MPI_INTEGER, right, 10, rbuf(1), 20, MPI_INTEGER, left, 10, MPI_COMM_WORLD, st, ierr)
  call MPI_Sendrecv_replace(rbuf(1), 2, MPI_INTEGER, right, 10, MPI_ANY_SOURCE, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Irecv(rbuf(1), 20, MPI_INTEGER, left, 11, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Ssend(sbuf(1), 4, MPI_INTEGER, right, 11, MPI_COMM_WORLD, ierr)
  call MPI_Wait(reqs(1), st, ierr)
  call MPI_Isend(sbuf(1), 5, MPI_INTEGER, right, 12, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Probe(left, 12, MPI_COMM_WORLD, st, ierr)
  call MPI_Iprobe(left, 12, MPI_COMM_WORLD, flag, st, ierr)
  if (.not. flag) stop 2
  call MPI_Recv(rbuf(1), 20, MPI_INTEGER, left, 12, MPI_COMM_WORLD, st, ierr)
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
  call MPI_Isend(sbuf(1), 6, MPI_INTEGER, right, 13, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Mprobe(MPI_ANY_SOURCE, 13, MPI_COMM_WORLD, msg, st, ierr)
  call MPI_Mrecv(rbuf(1), 20, MPI_INTEGER, msg, st, ierr)
  call MPI_Wait(reqs(1), st, ierr)
  call MPI_Isend(sbuf(1), 7, MPI_INTEGER, right, 14, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Probe(left, 14, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Improbe(left, 14, MPI_COMM_WORLD, flag, msg, st, ierr)
  if (.not. flag) stop 3
  call MPI_Imrecv(rbuf(1), 20, MPI_INTEGER, msg, reqs(2), ierr)
  call MPI_Waitall(2, reqs, sts, ierr)
  ! persistent
  call MPI_Send_init(sbuf(1), 2, MPI_INTEGER, right, 15, MPI_COMM_WORLD, preq(1), ierr)
  call MPI_Recv_init(rbuf(1), 20, MPI_INTEGER, left, 15, MPI_COMM_WORLD, preq(2), ierr)
  call MPI_Start(preq(2), ierr)
  call MPI_Start(preq(1), ierr)
  call MPI_Waitall(2, preq, MPI_STATUSES_IGNORE, ierr)
  call MPI_Startall(2, preq, ierr)
  call MPI_Wait(preq(1), st, ierr)
  call MPI_Wait(preq(2), st, ierr)
  call MPI_Request_free(preq(1), ierr)
  call MPI_Request_free(preq(2), ierr)
  ! waitany, waitsome, test family
  call MPI_Irecv(rbuf(1), 20, MPI_INTEGER, left, 16, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(sbuf(1), 3, MPI_INTEGER, right, 16, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Waitany(2, reqs, idx, st, ierr)
  call MPI_Waitany(2, reqs, idx, MPI_STATUS_IGNORE, ierr)
  call MPI_Irecv(rbuf(1), 20, MPI_INTEGER, left, 17, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Send(sbuf(1), 4, MPI_INTEGER, right, 17, MPI_COMM_WORLD, ierr)
  call MPI_Waitsome(1, reqs, outcount, indices, sts, ierr)
  if (outcount /= 1) stop 4
  call MPI_Irecv(rbuf(1), 20, MPI_INTEGER, left, 18, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Send(sbuf(1), 5, MPI_INTEGER, right, 18, MPI_COMM_WORLD, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Test(reqs(1), flag, st, ierr)
  end do
  call MPI_Irecv(rbuf(1), 20, MPI_INTEGER, left, 19, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Send(sbuf(1), 6, MPI_INTEGER, right, 19, MPI_COMM_WORLD, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Testany(1, reqs, idx, flag, st, ierr)
  end do
  call MPI_Irecv(rbuf(1), 20, MPI_INTEGER, left, 20, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Irecv(rbuf(21), 20, MPI_INTEGER, left, 21, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Send(sbuf(1), 7, MPI_INTEGER, right, 20, MPI_COMM_WORLD, ierr)
  call MPI_Send(sbuf(1), 8, MPI_INTEGER, right, 21, MPI_COMM_WORLD, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Testall(2, reqs, flag, MPI_STATUSES_IGNORE, ierr)
  end do
  call MPI_Irecv(rbuf(1), 20, MPI_INTEGER, left, 22, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Send(sbuf(1), 9, MPI_INTEGER, right, 22, MPI_COMM_WORLD, ierr)
  outcount = 0
  do while (outcount == 0)
    call MPI_Testsome(1, reqs, outcount, indices, sts, ierr)
  end do


  ! collectives
  do i = 1, n
    counts(i) = i
    displs(i) = (i - 1) * n
    rcounts(i) = rank + 1
    rdispls(i) = (i - 1) * n
    types(i) = MPI_INTEGER
  end do
  call MPI_Bcast(sbuf(1), 5, MPI_INTEGER, n - 1, MPI_COMM_WORLD, ierr)
  sbuf = rank
  call MPI_Reduce(sbuf(1), rbuf(1), 4, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  call MPI_Allreduce(MPI_IN_PLACE, rbuf(1), 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Gather(sbuf(1), 2, MPI_INTEGER, rbuf(1), 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    call MPI_Gather(MPI_IN_PLACE, 0, MPI_INTEGER, rbuf(1), 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  else
    call MPI_Gather(sbuf(1), 2, MPI_INTEGER, rbuf(1), 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  end if
  call MPI_Gatherv(sbuf(1), rank + 1, MPI_INTEGER, rbuf(1), counts, displs, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_Scatter(sbuf(1), 2, MPI_INTEGER, rbuf(1), 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_Scatterv(sbuf(1), counts, displs, MPI_INTEGER, rbuf(1), rank + 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_Allgather(sbuf(1), 1, MPI_INTEGER, rbuf(1), 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_INTEGER, rbuf(1), counts, displs, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call MPI_Alltoall(sbuf(1), 2, MPI_INTEGER, rbuf(1), 2, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call MPI_Alltoallv(sbuf(1), counts, displs, MPI_INTEGER, rbuf(1), rcounts, rdispls, MPI_INTEGER, &
                     MPI_COMM_WORLD, ierr)
  do i = 1, n
    displs(i) = (i - 1) * n * 4
    rdispls(i) = (i - 1) * n * 4
  end do
  call MPI_Alltoallw(sbuf(1), counts, displs, types, rbuf(1), rcounts, rdispls, types, MPI_COMM_WORLD, ierr)
  call MPI_Reduce_scatter(sbuf(1), rbuf(1), counts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Reduce_scatter_block(sbuf(1), rbuf(1), 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Scan(sbuf(1), rbuf(1), 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Exscan(sbuf(1), rbuf(1), 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Ibarrier(MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Ibcast(sbuf(1), 4, MPI_INTEGER, 0, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Iallreduce(sbuf(1), rbuf(1), 3, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, reqs(3), ierr)
  call MPI_Ialltoall(sbuf(1), 1, MPI_INTEGER, wbuf(1), 1, MPI_INTEGER, MPI_COMM_WORLD, reqs(4), ierr)
  call MPI_Waitall(4, reqs, sts, ierr)
  call MPI_Ireduce(sbuf(1), rbuf(1), 2, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)

  ! communicators
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  call MPI_Barrier(dup, ierr)
  call MPI_Comm_idup(dup, idup, reqs(1), ierr)
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
  call MPI_Allreduce(sbuf(1), rbuf(1), 1, MPI_INTEGER, MPI_SUM, idup, ierr)
  call MPI_Comm_split(MPI_COMM_WORLD, modulo(rank, 2), -rank, split, ierr)
  call MPI_Bcast(sbuf(1), 2, MPI_INTEGER, 0, split, ierr)
  call MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, styp, ierr)
  call MPI_Barrier(styp, ierr)
  call MPI_Comm_group(MPI_COMM_WORLD, wgroup, ierr)
  do i = 1, (n + 1) / 2
    ranks(i) = 2 * (i - 1)
  end do
  call MPI_Group_incl(wgroup, (n + 1) / 2, ranks, egroup, ierr)
  call MPI_Comm_create(MPI_COMM_WORLD, egroup, created, ierr)
  if (modulo(rank, 2) == 0) then
    call MPI_Barrier(created, ierr)
    call MPI_Comm_free(created, ierr)
    call MPI_Comm_create_group(MPI_COMM_WORLD, egroup, 5, cgroup, ierr)
    call MPI_Barrier(cgroup, ierr)
    call MPI_Comm_free(cgroup, ierr)
  end if
  dims(1) = n
  periods(1) = .true.
  call MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, .false., cart, ierr)
  call MPI_Neighbor_allgather(sbuf(1), 2, MPI_INTEGER, rbuf(1), 2, MPI_INTEGER, cart, ierr)
  call MPI_Neighbor_alltoall(sbuf(1), 1, MPI_INTEGER, rbuf(1), 1, MPI_INTEGER, cart, ierr)
  call MPI_Ineighbor_allgather(sbuf(1), 3, MPI_INTEGER, rbuf(1), 3, MPI_INTEGER, cart, reqs(1), ierr)
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
  remain(1) = .true.
  call MPI_Cart_sub(cart, remain, sub, ierr)
  call MPI_Barrier(sub, ierr)
  srcs(1) = left
  srcs(2) = right
  dsts(1) = right
  dsts(2) = left
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, srcs, MPI_UNWEIGHTED, 2, dsts, MPI_UNWEIGHTED, &
                                      MPI_INFO_NULL, .false., dist, ierr)
  counts(1) = 1
  counts(2) = 2
  displs(1) = 0
  displs(2) = 4
  call MPI_Neighbor_alltoallv(sbuf(1), counts, displs, MPI_INTEGER, rbuf(1), counts, displs, MPI_INTEGER, dist, ierr)
  if (n > 1) then
    call MPI_Comm_split(MPI_COMM_WORLD, modulo(rank, 2), rank, half, ierr)
    call MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - modulo(rank, 2), 33, inter, ierr)
    if (modulo(rank, 2) == 1) then
      call MPI_Bcast(sbuf(1), 1, MPI_INTEGER, 0, inter, ierr)
    else
      call MPI_Bcast(sbuf(1), 1, MPI_INTEGER, merge(MPI_ROOT, MPI_PROC_NULL, rank == 0), inter, ierr)
    end if
    call MPI_Intercomm_merge(inter, modulo(rank, 2) == 1, merged, ierr)
    call MPI_Barrier(merged, ierr)
    call MPI_Comm_free(merged, ierr)
    call MPI_Comm_free(inter, ierr)
    call MPI_Comm_free(half, ierr)
  end if
  call MPI_Comm_free(dist, ierr)
  call MPI_Comm_free(sub, ierr)
  call MPI_Comm_free(cart, ierr)
  call MPI_Comm_free(styp, ierr)
  call MPI_Comm_free(split, ierr)
  call MPI_Comm_free(idup, ierr)
  call MPI_Comm_free(dup, ierr)

  ! one-sided
  wsize = 64 * 4
  call MPI_Win_create(wbuf(1), wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  disp = 0
  call MPI_Put(sbuf(1), 2, MPI_INTEGER, right, disp, 2, MPI_INTEGER, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  call MPI_Get(rbuf(1), 3, MPI_INTEGER, left, disp, 3, MPI_INTEGER, win, ierr)
  call MPI_Accumulate(sbuf(1), 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, MPI_SUM, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  call MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win, ierr)
  call MPI_Fetch_and_op(one, cnt, MPI_INTEGER, right, disp, MPI_SUM, win, ierr)
  call MPI_Compare_and_swap(one, one, cnt, MPI_INTEGER, right, disp, win, ierr)
  call MPI_Win_flush(right, win, ierr)
  call MPI_Win_unlock(right, win, ierr)
  call MPI_Win_lock_all(0, win, ierr)
  call MPI_Rput(sbuf(1), 2, MPI_INTEGER, left, disp, 2, MPI_INTEGER, win, r1, ierr)
  call MPI_Wait(r1, MPI_STATUS_IGNORE, ierr)
  call MPI_Win_flush_all(win, ierr)
  call MPI_Win_unlock_all(win, ierr)
  call MPI_Win_free(win, ierr)

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)
end program crosscheck
